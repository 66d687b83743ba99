/* ckinfo: reports the chosen OpenCL device, its capabilities, the atomics
 * path and channel transport, the discovered occupancy for given work-group
 * sizes, and the channel round-trip latency. Human-readable or --json. */
#include "ck.h"
#include "cli.h"
#include "json_out.h"

#include <getopt.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WG 16
/* Bounds of the numeric options (each in --help). */
#define MAX_LAUNCH (1u << 20)    /* work-groups launched for discovery */
#define MAX_ROUND_TRIPS 1000000u /* round trips timed (8 bytes of samples each) */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: ckinfo [options]\n"
            "  --device S        device whose \"platform / device\" name contains S (default: CK_DEVICE, else the\n"
            "                    first GPU with a usable path, else PoCL)\n"
            "  --path P          atomics path: auto, cl20 or cl12 (default: CK_PATH, else auto)\n"
            "  --wg-size LIST    work-group sizes for occupancy, comma-separated, 1..%d entries of 1..%u\n"
            "                    work-items and at most the device's maximum (default 64; also --wg)\n"
            "  --launch N        work-groups launched for discovery, 1..%u (default: automatic)\n"
            "  --round-trips N   channel round trips to time, 0..%u (default 2000; 0 skips)\n"
            "  --timeout S       seconds before any probe is aborted, above 0 and at most %.0f (default %.0f)\n"
            "  --json            machine-readable output\n"
            "  --list            list the OpenCL devices and exit\n"
            "  --version         print the version and exit\n"
            "  --help            this text\n"
            "Exit status: 0 ok, 1 a probe failed, 2 nothing was run: bad command line, no such device or a\n"
            "work-group size it refuses (one line on stderr).\n",
            MAX_WG, CLI_MAX_WG_SIZE, MAX_LAUNCH, MAX_ROUND_TRIPS, CLI_MAX_TIMEOUT_S, CLI_DEFAULT_TIMEOUT_S);
}

int main(int argc, char **argv)
{
    ck_device_options o = {0};
    size_t wgs[MAX_WG] = {64};
    int n_wg = 1, json = 0, list = 0;
    size_t launch = 0, trips = 2000;
    double timeout = CLI_DEFAULT_TIMEOUT_S;
    enum { OPT_DEVICE = 256, OPT_PATH, OPT_WG, OPT_LAUNCH, OPT_TRIPS, OPT_TIMEOUT, OPT_JSON, OPT_LIST, OPT_VERSION };
    static const struct option longopts[] = {{"device", required_argument, NULL, OPT_DEVICE},
                                             {"path", required_argument, NULL, OPT_PATH},
                                             {"wg-size", required_argument, NULL, OPT_WG},
                                             {"wg", required_argument, NULL, OPT_WG},
                                             {"launch", required_argument, NULL, OPT_LAUNCH},
                                             {"round-trips", required_argument, NULL, OPT_TRIPS},
                                             {"timeout", required_argument, NULL, OPT_TIMEOUT},
                                             {"json", no_argument, NULL, OPT_JSON},
                                             {"list", no_argument, NULL, OPT_LIST},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    cli_init("ckinfo");
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); return 0;
        case OPT_VERSION: cli_print_version(); return 0;
        case OPT_JSON: json = 1; break;
        case OPT_LIST: list = 1; break;
        case OPT_DEVICE: o.device = optarg; break;
        case OPT_PATH:
            if (ck_path_parse(optarg, &o.path) != CK_OK)
                cli_bad_value("--path", optarg, "unknown atomics path", "auto, cl20 or cl12");
            break;
        case OPT_WG: {
            uint64_t v[MAX_WG];
            n_wg = (int)cli_uint_list("--wg-size", optarg, 1, CLI_MAX_WG_SIZE, "work-items", v, MAX_WG);
            for (int i = 0; i < n_wg; ++i)
                wgs[i] = (size_t)v[i];
            break;
        }
        case OPT_LAUNCH: launch = (size_t)cli_uint("--launch", optarg, 1, MAX_LAUNCH, "work-groups"); break;
        case OPT_TRIPS: trips = (size_t)cli_uint("--round-trips", optarg, 0, MAX_ROUND_TRIPS, "round trips"); break;
        case OPT_TIMEOUT: timeout = cli_timeout("--timeout", optarg); break;
        default: cli_getopt_error(c, argv);
        }
    }
    cli_no_operands(argc, argv);
    if (list) {
        if (ck_device_list(stdout) != CK_OK) {
            fprintf(stderr, "ckinfo: %s\n", ck_last_error());
            return 1;
        }
        return 0;
    }

    cli_check_device(&o, wgs, (size_t)n_wg);
    ck_device *dev;
    if (ck_device_open(&o, &dev) != CK_OK) {
        fprintf(stderr, "ckinfo: %s\n", ck_last_error());
        return 1;
    }
    const ck_device_info *in = ck_device_get_info(dev);

    ck_occupancy_result occ[MAX_WG];
    ck_status occ_s[MAX_WG];
    char occ_err[MAX_WG][512];
    for (int i = 0; i < n_wg; ++i) {
        ck_occupancy_options oo = {.work_group_size = wgs[i],
                                   .launch_groups = launch,
                                   .barrier_rounds = 16,
                                   .timeout_s = timeout};
        occ_s[i] = ck_occupancy_discover(dev, &oo, &occ[i]);
        snprintf(occ_err[i], sizeof occ_err[i], "%s", occ_s[i] == CK_OK ? "" : ck_last_error());
        if (occ_s[i] == CK_ERR_INVALID_ARGUMENT || occ_s[i] == CK_ERR_BUILD) {
            fprintf(stderr, "ckinfo: %s\n", occ_err[i]);
            ck_device_close(dev);
            return 1;
        }
    }
    ck_latency_result lat = {0};
    ck_status lat_s = CK_OK;
    char lat_err[512] = "";
    if (trips) {
        lat_s = ck_channel_latency(dev, (unsigned)trips, &lat);
        if (lat_s != CK_OK)
            snprintf(lat_err, sizeof lat_err, "%s", ck_last_error());
    }

    if (json) {
        json_out j;
        jo_start(&j, stdout);
        jo_object(&j, NULL);
        jo_str(&j, "platform", in->platform_name);
        jo_str(&j, "platform_version", in->platform_version);
        jo_str(&j, "device", in->device_name);
        jo_str(&j, "vendor", in->device_vendor);
        jo_str(&j, "device_version", in->device_version);
        jo_str(&j, "driver_version", in->driver_version);
        jo_str(&j, "opencl_c_version", in->opencl_c_version);
        char c_max[32];
        snprintf(c_max, sizeof c_max, "%d.%d", in->c_version_major, in->c_version_minor);
        jo_str(&j, "opencl_c_max", c_max);
        jo_str(&j, "type", in->is_gpu ? "GPU" : in->is_cpu ? "CPU" : "other");
        jo_uint(&j, "compute_units", in->compute_units);
        jo_uint(&j, "max_work_group_size", in->max_work_group_size);
        jo_object(&j, "svm");
        jo_bool(&j, "coarse_buffer", in->svm_coarse_buffer);
        jo_bool(&j, "fine_buffer", in->svm_fine_buffer);
        jo_bool(&j, "fine_system", in->svm_fine_system);
        jo_bool(&j, "atomics", in->svm_atomics);
        jo_end(&j);
        jo_bool(&j, "c11_atomics", in->c11_atomics);
        jo_uint(&j, "atomic_memory_caps", in->atomic_memory_caps);
        jo_bool(&j, "cl_nv_create_buffer", in->nv_create_buffer);
        jo_str(&j, "path_cl20_missing", in->path_cl20_missing);
        jo_str(&j, "path_cl12_missing", in->path_cl12_missing);
        jo_str(&j, "path", ck_path_name(in->path));
        jo_str(&j, "transport", ck_transport_name(in->transport));
        jo_bool(&j, "nv_ptx_fences", in->nv_ptx_fences);
        jo_array(&j, "occupancy");
        for (int i = 0; i < n_wg; ++i) {
            jo_object(&j, NULL);
            jo_uint(&j, "work_group_size", wgs[i]);
            if (occ_s[i] == CK_OK) {
                jo_uint(&j, "occupancy", occ[i].occupancy);
                jo_uint(&j, "launched", occ[i].launched);
                jo_num(&j, "discovery_ms", "%.3f", occ[i].discovery_ms);
                jo_bool(&j, "barrier_ok", 1);
            } else
                jo_str(&j, "error", ck_status_name(occ_s[i]));
            jo_end(&j);
        }
        jo_end(&j);
        if (!trips)
            jo_null(&j, "round_trip");
        else {
            jo_object(&j, "round_trip");
            if (lat_s == CK_OK) {
                jo_uint(&j, "count", lat.round_trips);
                jo_num(&j, "min_us", "%.2f", lat.min_us);
                jo_num(&j, "median_us", "%.2f", lat.median_us);
                jo_num(&j, "p99_us", "%.2f", lat.p99_us);
                jo_num(&j, "max_us", "%.2f", lat.max_us);
            } else
                jo_str(&j, "error", ck_status_name(lat_s));
            jo_end(&j);
        }
        jo_end(&j);
    } else {
        printf("Platform      %s (%s)\n", in->platform_name, in->platform_version);
        printf("Device        %s [%s], %s\n", in->device_name,
               in->is_gpu   ? "GPU"
               : in->is_cpu ? "CPU"
                            : "other",
               in->device_vendor);
        printf("Versions      %s; driver %s; %s (highest accepted: %d.%d)\n", in->device_version, in->driver_version,
               in->opencl_c_version, in->c_version_major, in->c_version_minor);
        printf("Compute units %u, max work-group size %zu, local memory %llu KiB\n", in->compute_units,
               in->max_work_group_size, (unsigned long long)(in->local_mem_bytes / 1024));
        printf("SVM           coarse buffer %s, fine buffer %s, fine system %s, atomics %s\n",
               in->svm_coarse_buffer ? "yes" : "no", in->svm_fine_buffer ? "yes" : "no",
               in->svm_fine_system ? "yes" : "no", in->svm_atomics ? "yes" : "no");
        printf("Atomics       C11 (acq_rel, device scope) %s; atomic memory caps 0x%llx%s; cl_nv_create_buffer %s\n",
               in->c11_atomics ? "yes" : "no", (unsigned long long)in->atomic_memory_caps,
               in->atomic_caps_known ? "" : " (not reported)", in->nv_create_buffer ? "yes" : "no");
        printf("Path cl20     %s%s\n", in->path_cl20_ok ? "usable" : "missing: ", in->path_cl20_missing);
        printf("Path cl12     %s%s\n", in->path_cl12_ok ? "usable" : "missing: ", in->path_cl12_missing);
        printf("Chosen        path %s, transport %s, -cl-std=%s%s\n", ck_path_name(in->path),
               ck_transport_name(in->transport), in->opencl_c_std, in->nv_ptx_fences ? ", PTX fences" : "");
        for (int i = 0; i < n_wg; ++i) {
            if (occ_s[i] == CK_OK)
                printf(
                    "Occupancy     %u work-groups of %zu (launched %zu, discovered in %.1f ms, barrier checked)\n",
                    occ[i].occupancy, wgs[i], occ[i].launched, occ[i].discovery_ms);
            else
                printf("Occupancy     work-group size %zu: FAILED: %s\n", wgs[i], occ_err[i]);
        }
        if (trips && lat_s == CK_OK)
            printf("Round trip    median %.2f us, p99 %.2f us, min %.2f us, max %.2f us over %u\n", lat.median_us,
                   lat.p99_us, lat.min_us, lat.max_us, lat.round_trips);
        else if (trips)
            printf("Round trip    FAILED: %s\n", lat_err);
    }
    int failed = lat_s != CK_OK;
    for (int i = 0; i < n_wg; ++i)
        failed |= occ_s[i] != CK_OK;
    ck_device_close(dev);
    return failed ? 1 : 0;
}
