/* apps/app_registry.c: which application modules are built, by kind. A
 * new application adds its module here (and its kind to app.h). */
#include "app_module.h"

extern const app_module app_module_bfs, app_module_ws;
extern const app_module app_module_psssp, app_module_bc;

static const app_module *const modules[APP_KIND_COUNT] = {
    [APP_KIND_BFS] = &app_module_bfs,
    [APP_KIND_WS] = &app_module_ws,
    [APP_KIND_PSSSP] = &app_module_psssp,
    [APP_KIND_BC] = &app_module_bc,
};

const app_module *app_module_of(app_kind k) { return (unsigned)k < APP_KIND_COUNT ? modules[k] : NULL; }
