/* apps/app_registry.c: which application modules are built, by kind. A
 * new application adds its module here (and its kind to app.h). */
#include "app_module.h"

extern const app_module app_module_bfs, app_module_ws;
extern const app_module app_module_bfswl, app_module_lsssp;

static const app_module *const modules[APP_KIND_COUNT] = {
    [APP_KIND_BFS] = &app_module_bfs,
    [APP_KIND_WS] = &app_module_ws,
    [APP_KIND_BFSWL] = &app_module_bfswl,
    [APP_KIND_LSSSP] = &app_module_lsssp,
};

const app_module *app_module_of(app_kind k) { return (unsigned)k < APP_KIND_COUNT ? modules[k] : NULL; }
