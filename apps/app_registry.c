/* apps/app_registry.c: which application modules are built, by kind. A
 * new application adds its module here (and its kind to app.h). */
#include "app_module.h"

extern const app_module app_module_bfs, app_module_ws;
extern const app_module app_module_octree, app_module_game;
extern const app_module app_module_color, app_module_mis;
extern const app_module app_module_bfswl, app_module_lsssp;
extern const app_module app_module_psssp, app_module_bc;

static const app_module *const modules[APP_KIND_COUNT] = {
    [APP_KIND_BFS] = &app_module_bfs,       [APP_KIND_WS] = &app_module_ws,
    [APP_KIND_OCTREE] = &app_module_octree, [APP_KIND_GAME] = &app_module_game,
    [APP_KIND_COLOR] = &app_module_color,   [APP_KIND_MIS] = &app_module_mis,
    [APP_KIND_BFSWL] = &app_module_bfswl,   [APP_KIND_LSSSP] = &app_module_lsssp,
    [APP_KIND_PSSSP] = &app_module_psssp,   [APP_KIND_BC] = &app_module_bc,
};

const app_module *app_module_of(app_kind k) { return (unsigned)k < APP_KIND_COUNT ? modules[k] : NULL; }
