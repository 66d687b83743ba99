/* Device layer: enumerates OpenCL platforms and devices, picks one, probes the
 * capabilities that matter to us and chooses the atomics path and channel
 * transport. */
#include "device_internal.h"
#include "error.h"
#include "handle.h"

#include <CL/cl_ext.h>
#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    char label[260]; /* "platform / device" */
    cl_device_type type;
} candidate;

const char *ck_path_name(ck_path p) { return p == CK_PATH_CL20 ? "cl20" : p == CK_PATH_CL12 ? "cl12" : "auto"; }

const char *ck_transport_name(ck_transport t)
{
    return t == CK_TRANSPORT_SVM ? "fine-grain SVM" : "pinned host memory";
}

ck_status ck_path_parse(const char *text, ck_path *out)
{
    if (!text || !out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_path_parse: text and out must not be NULL");
    if (!strcasecmp(text, "auto") || !*text)
        *out = CK_PATH_AUTO;
    else if (!strcasecmp(text, "cl20") || !strcmp(text, "2.0") || !strcasecmp(text, "svm"))
        *out = CK_PATH_CL20;
    else if (!strcasecmp(text, "cl12") || !strcmp(text, "1.2") || !strcasecmp(text, "pinned"))
        *out = CK_PATH_CL12;
    else
        return ck_fail(CK_ERR_INVALID_ARGUMENT,
                       "unknown atomics path '%s': use 'cl20' (SVM + C11 atomics), 'cl12' (pinned "
                       "memory + OpenCL 1.2 atomics) or 'auto'",
                       text);
    return CK_OK;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; ++hay)
        if (!strncasecmp(hay, needle, n))
            return 1;
    return n == 0;
}

static void get_str(cl_device_id d, cl_device_info what, char *buf, size_t len)
{
    buf[0] = 0;
    if (clGetDeviceInfo(d, what, len, buf, NULL) != CL_SUCCESS)
        buf[0] = 0;
    buf[len - 1] = 0;
}

static char *get_str_alloc(cl_device_id d, cl_device_info what)
{
    size_t n = 0;
    if (clGetDeviceInfo(d, what, 0, NULL, &n) != CL_SUCCESS || n == 0)
        return calloc(1, 1);
    char *s = calloc(1, n + 1);
    if (s && clGetDeviceInfo(d, what, n, s, NULL) != CL_SUCCESS)
        s[0] = 0;
    return s;
}

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += n)
        if ((p == list || isspace((unsigned char)p[-1])) && (!p[n] || isspace((unsigned char)p[n])))
            return 1;
    return 0;
}

/* Collects every device of every platform. Returns count, or -1 if no platform. */
static int enumerate(candidate *c, int max)
{
    cl_platform_id plats[MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(MAX_PLATFORMS, plats, &np) != CL_SUCCESS || np == 0)
        return -1;
    int n = 0;
    for (cl_uint p = 0; p < np && n < max; ++p) {
        char pname[128] = "";
        clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof pname, pname, NULL);
        pname[sizeof pname - 1] = 0;
        cl_device_id devs[MAX_DEVICES];
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, devs, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint d = 0; d < nd && n < max; ++d) {
            char dname[128];
            get_str(devs[d], CL_DEVICE_NAME, dname, sizeof dname);
            c[n].platform = plats[p];
            c[n].device = devs[d];
            c[n].type = 0;
            clGetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof c[n].type, &c[n].type, NULL);
            snprintf(c[n].label, sizeof c[n].label, "%s / %s", pname, dname);
            ++n;
        }
    }
    return n;
}

ck_status ck_device_list(FILE *f)
{
    candidate c[MAX_DEVICES];
    int n = enumerate(c, MAX_DEVICES);
    if (n < 0)
        return ck_fail(CK_ERR_NO_DEVICE, "no OpenCL platform is installed: install an ICD such as "
                                         "pocl-opencl-icd (CPU) or your GPU vendor's OpenCL driver");
    for (int i = 0; i < n; ++i)
        fprintf(f, "%s [%s]\n", c[i].label,
                (c[i].type & CL_DEVICE_TYPE_GPU)   ? "GPU"
                : (c[i].type & CL_DEVICE_TYPE_CPU) ? "CPU"
                                                   : "other");
    return CK_OK;
}

/* Parses "OpenCL C X.Y ..." into major/minor. */
static void parse_c_version(const char *s, int *maj, int *min)
{
    *maj = 1;
    *min = 0;
    const char *p = strstr(s, "OpenCL C ");
    if (p)
        sscanf(p + 9, "%d.%d", maj, min);
}

void ck_device_evaluate_paths(ck_device_info *info)
{
    /* Path CL20: fine-grain buffer SVM, SVM atomics, C11 atomics in the compiler. */
    char *m = info->path_cl20_missing;
    size_t ml = sizeof info->path_cl20_missing;
    m[0] = 0;
    if (!info->svm_fine_buffer)
        strncat(m, "fine-grain buffer SVM; ", ml - strlen(m) - 1);
    if (!info->svm_atomics)
        strncat(m, "SVM atomics; ", ml - strlen(m) - 1);
    if (!info->c11_atomics)
        strncat(m, "OpenCL C 2.0 atomics (acq_rel order, device scope); ", ml - strlen(m) - 1);
    info->path_cl20_ok = m[0] == 0;

    /* Path CL12: memory the host sees while a kernel runs. */
    m = info->path_cl12_missing;
    ml = sizeof info->path_cl12_missing;
    m[0] = 0;
    if (!info->nv_create_buffer && !info->is_cpu)
        strncat(m,
                "host-visible memory during a kernel (needs cl_nv_create_buffer, or a CPU device "
                "with zero-copy host buffers); ",
                ml - strlen(m) - 1);
    info->path_cl12_ok = m[0] == 0;
}

/* Fills every capability field of info and decides which paths are possible. */
static void probe(cl_platform_id plat, cl_device_id d, ck_device_info *info)
{
    memset(info, 0, sizeof *info);
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof info->platform_name, info->platform_name, NULL);
    clGetPlatformInfo(plat, CL_PLATFORM_VERSION, sizeof info->platform_version, info->platform_version, NULL);
    info->platform_name[sizeof info->platform_name - 1] = 0;
    info->platform_version[sizeof info->platform_version - 1] = 0;
    get_str(d, CL_DEVICE_NAME, info->device_name, sizeof info->device_name);
    get_str(d, CL_DEVICE_VENDOR, info->device_vendor, sizeof info->device_vendor);
    get_str(d, CL_DEVICE_VERSION, info->device_version, sizeof info->device_version);
    get_str(d, CL_DRIVER_VERSION, info->driver_version, sizeof info->driver_version);
    get_str(d, CL_DEVICE_OPENCL_C_VERSION, info->opencl_c_version, sizeof info->opencl_c_version);

    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    info->is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
    info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    cl_uint cu = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    info->compute_units = cu;
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof info->max_work_group_size, &info->max_work_group_size,
                    NULL);
    cl_ulong gm = 0, lm = 0;
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gm, &gm, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
    info->global_mem_bytes = gm;
    info->local_mem_bytes = lm;
    cl_bool unified = CL_FALSE;
    clGetDeviceInfo(d, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof unified, &unified, NULL);
    info->host_unified_memory = unified == CL_TRUE;

    cl_device_svm_capabilities svm = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL) != CL_SUCCESS)
        svm = 0;
    info->svm_coarse_buffer = (svm & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER) != 0;
    info->svm_fine_buffer = (svm & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
    info->svm_fine_system = (svm & CL_DEVICE_SVM_FINE_GRAIN_SYSTEM) != 0;
    info->svm_atomics = (svm & CL_DEVICE_SVM_ATOMICS) != 0;

    cl_device_atomic_capabilities acaps = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, sizeof acaps, &acaps, NULL) == CL_SUCCESS) {
        info->atomic_caps_known = 1;
        info->atomic_memory_caps = acaps;
    }

    /* Highest OpenCL C version: CL_DEVICE_OPENCL_C_ALL_VERSIONS (3.0) may list
     * 3.0 even when CL_DEVICE_OPENCL_C_VERSION says 1.2 (PoCL does). */
    int maj, min;
    parse_c_version(info->opencl_c_version, &maj, &min);
    size_t nv = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, NULL, &nv) == CL_SUCCESS && nv) {
        cl_name_version *vs = malloc(nv);
        if (vs && clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_ALL_VERSIONS, nv, vs, NULL) == CL_SUCCESS) {
            for (size_t i = 0; i < nv / sizeof *vs; ++i) {
                int M = (int)CL_VERSION_MAJOR(vs[i].version), m = (int)CL_VERSION_MINOR(vs[i].version);
                if (M > maj || (M == maj && m > min)) {
                    maj = M;
                    min = m;
                }
            }
        }
        free(vs);
    }
    info->c_version_major = maj;
    info->c_version_minor = min;

    int feat_acq_rel = 0, feat_dev_scope = 0;
    size_t nf = 0;
    if (clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &nf) == CL_SUCCESS && nf) {
        cl_name_version *fs = malloc(nf);
        if (fs && clGetDeviceInfo(d, CL_DEVICE_OPENCL_C_FEATURES, nf, fs, NULL) == CL_SUCCESS) {
            for (size_t i = 0; i < nf / sizeof *fs; ++i) {
                if (!strcmp(fs[i].name, "__opencl_c_atomic_order_acq_rel"))
                    feat_acq_rel = 1;
                if (!strcmp(fs[i].name, "__opencl_c_atomic_scope_device"))
                    feat_dev_scope = 1;
            }
        }
        free(fs);
    }
    if (maj == 2)
        info->c11_atomics = 1;
    else if (maj >= 3)
        info->c11_atomics = feat_acq_rel && feat_dev_scope;
    if (maj >= 3 && info->c11_atomics)
        strcpy(info->opencl_c_std, "CL3.0");
    else if (maj == 2)
        strcpy(info->opencl_c_std, "CL2.0");

    char *ext = get_str_alloc(d, CL_DEVICE_EXTENSIONS);
    info->nv_create_buffer = ext && has_word(ext, "cl_nv_create_buffer");
    free(ext);

    ck_device_evaluate_paths(info);
}

/* cl_nv_device_attribute_query's names (cl_ext.h may lack them). */
#define CK_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define CK_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001
#define CK_DEVICE_REGISTERS_PER_BLOCK_NV 0x4002

/* What the runtime needs to read and cap the megakernel's registers on
 * NVIDIA (nv_resources.h). Queries that fail leave zeros: no report, no cap. */
static void read_nv_compiler_facts(ck_device *dev)
{
    char *ext = get_str_alloc(dev->device, CL_DEVICE_EXTENSIONS);
    dev->nv_compiler_options = ext && has_word(ext, "cl_nv_compiler_options");
    int attrs = ext && has_word(ext, "cl_nv_device_attribute_query");
    free(ext);
    cl_uint v[3] = {0, 0, 0};
    if (attrs &&
        clGetDeviceInfo(dev->device, CK_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof v[0], &v[0], NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(dev->device, CK_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof v[1], &v[1], NULL) ==
            CL_SUCCESS &&
        clGetDeviceInfo(dev->device, CK_DEVICE_REGISTERS_PER_BLOCK_NV, sizeof v[2], &v[2], NULL) == CL_SUCCESS) {
        dev->nv_cc_major = v[0];
        dev->nv_cc_minor = v[1];
        dev->nv_regs_per_cu = v[2];
    }
}

static int is_pocl(const candidate *c)
{
    return contains_ci(c->label, "Portable Computing Language") || contains_ci(c->label, "pocl");
}

ck_status ck_device_choose_path(ck_device_info *info, ck_path want)
{
    if (want == CK_PATH_CL20 && !info->path_cl20_ok)
        return ck_fail(CK_ERR_NO_PATH,
                       "device '%s' cannot run the cl20 path: it lacks %suse --path cl12 or "
                       "CK_PATH=cl12",
                       info->device_name, info->path_cl20_missing);
    if (want == CK_PATH_CL12 && !info->path_cl12_ok)
        return ck_fail(CK_ERR_NO_PATH,
                       "device '%s' cannot run the cl12 path: it lacks %suse --path cl20 or "
                       "CK_PATH=cl20",
                       info->device_name, info->path_cl12_missing);
    if (want == CK_PATH_AUTO) {
        if (info->path_cl20_ok)
            want = CK_PATH_CL20;
        else if (info->path_cl12_ok)
            want = CK_PATH_CL12;
        else
            return ck_fail(CK_ERR_NO_PATH,
                           "device '%s' has no usable path: for cl20 it lacks %sfor cl12 it "
                           "lacks %schoose another device with CK_DEVICE or --device",
                           info->device_name, info->path_cl20_missing, info->path_cl12_missing);
    }
    info->path = want;
    info->transport = want == CK_PATH_CL20 ? CK_TRANSPORT_SVM : CK_TRANSPORT_PINNED;
    if (want == CK_PATH_CL12)
        strcpy(info->opencl_c_std, "CL1.2");
    return CK_OK;
}

ck_status ck_device_open(const ck_device_options *opts, ck_device **out)
{
    if (!out)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "ck_device_open: out must not be NULL");
    *out = NULL;
    const char *filter = opts && opts->device ? opts->device : getenv("CK_DEVICE");
    if (filter && !*filter)
        filter = NULL;
    ck_path want = opts ? opts->path : CK_PATH_AUTO;
    if (want == CK_PATH_AUTO && getenv("CK_PATH")) {
        ck_status s = ck_path_parse(getenv("CK_PATH"), &want);
        if (s != CK_OK)
            return ck_fail(s, "environment variable CK_PATH: %s", ck_last_error());
    }

    candidate c[MAX_DEVICES];
    int n = enumerate(c, MAX_DEVICES);
    if (n <= 0)
        return ck_fail(CK_ERR_NO_DEVICE, "no OpenCL device found: install an ICD such as pocl-opencl-icd "
                                         "(CPU) or your GPU vendor's OpenCL driver (try 'clinfo')");

    int pick = -1;
    ck_device_info info;
    if (filter) {
        for (int i = 0; i < n && pick < 0; ++i)
            if (contains_ci(c[i].label, filter))
                pick = i;
        if (pick < 0) {
            char list[1024] = "";
            for (int i = 0; i < n; ++i) {
                strncat(list, i ? "; " : "", sizeof list - strlen(list) - 1);
                strncat(list, c[i].label, sizeof list - strlen(list) - 1);
            }
            return ck_fail(CK_ERR_NO_DEVICE,
                           "no OpenCL device matches '%s'; available: %s. Pass a substring "
                           "of one of these to --device or CK_DEVICE",
                           filter, list);
        }
    } else {
        /* A GPU that qualifies for the wanted path, else PoCL, else anything that qualifies. */
        for (int pass = 0; pass < 3 && pick < 0; ++pass) {
            for (int i = 0; i < n && pick < 0; ++i) {
                if (pass == 0 && !(c[i].type & CL_DEVICE_TYPE_GPU))
                    continue;
                if (pass == 1 && !is_pocl(&c[i]))
                    continue;
                probe(c[i].platform, c[i].device, &info);
                int ok = want == CK_PATH_CL20   ? info.path_cl20_ok
                         : want == CK_PATH_CL12 ? info.path_cl12_ok
                                                : (info.path_cl20_ok || info.path_cl12_ok);
                if (ok || pass == 1)
                    pick = i;
            }
        }
        if (pick < 0)
            pick = 0; /* ck_device_choose_path below explains what is missing */
    }

    probe(c[pick].platform, c[pick].device, &info);
    ck_status s = ck_device_choose_path(&info, want);
    if (s != CK_OK)
        return s;

    ck_device *dev = calloc(1, sizeof *dev);
    if (!dev)
        return ck_fail(CK_ERR_NO_MEMORY, "out of host memory opening a device");
    dev->platform = c[pick].platform;
    dev->device = c[pick].device;
    dev->info = info;
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    dev->context = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (!dev->context) {
        free(dev);
        return ck_fail_cl(err, "clCreateContext", "is the device in use or its driver broken? Check 'clinfo'.");
    }
    dev->queue = clCreateCommandQueueWithProperties(dev->context, dev->device, NULL, &err);
    if (!dev->queue) {
        clReleaseContext(dev->context);
        free(dev);
        return ck_fail_cl(err, "clCreateCommandQueueWithProperties", "");
    }
    read_nv_compiler_facts(dev);
    if (info.nv_create_buffer)
        dev->create_buffer_nv =
            (ck_create_buffer_nv_fn)clGetExtensionFunctionAddressForPlatform(dev->platform, "clCreateBufferNV");
    dev->magic = CK_MAGIC_DEVICE;
    ck_status reg = ck_handle_register(dev, CK_HANDLE_DEVICE);
    if (reg != CK_OK) {
        clReleaseCommandQueue(dev->queue);
        clReleaseContext(dev->context);
        free(dev);
        return reg;
    }
    if (info.path == CK_PATH_CL12 && !info.is_cpu && !dev->create_buffer_nv) {
        ck_device_close(dev);
        return ck_fail(CK_ERR_NO_PATH,
                       "device '%s' reports cl_nv_create_buffer but clCreateBufferNV could "
                       "not be loaded; update the driver",
                       info.device_name);
    }
    *out = dev;
    return CK_OK;
}

/* OpenCL contexts closed while a megakernel runs (see ck_device_note_megakernel). */
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned running_megakernels;
static cl_context *parked;
static size_t n_parked, cap_parked;

void ck_device_note_megakernel(int running)
{
    cl_context *release = NULL;
    size_t n = 0;
    pthread_mutex_lock(&parked_lock);
    if (running)
        running_megakernels += 1;
    else if (running_megakernels)
        running_megakernels -= 1;
    if (!running_megakernels) {
        release = parked;
        n = n_parked;
        parked = NULL;
        n_parked = cap_parked = 0;
    }
    pthread_mutex_unlock(&parked_lock);
    for (size_t i = 0; i < n; ++i)
        clReleaseContext(release[i]);
    free(release);
}

/* 1 if the context was parked for later release. */
static int park_context(cl_context c)
{
    int done = 0;
    pthread_mutex_lock(&parked_lock);
    if (running_megakernels) {
        if (n_parked == cap_parked) {
            size_t cap = cap_parked ? 2 * cap_parked : 4;
            cl_context *p = realloc(parked, cap * sizeof *p);
            if (p) {
                parked = p;
                cap_parked = cap;
            }
        }
        /* Out of memory: leak the context rather than hang in its release. */
        if (n_parked < cap_parked)
            parked[n_parked++] = c;
        done = 1;
    }
    pthread_mutex_unlock(&parked_lock);
    return done;
}

ck_status ck_device_check(const ck_device *dev, const char *fn)
{
    ck_status s = ck_handle_check(dev, CK_HANDLE_DEVICE, fn);
    if (s == CK_OK && dev->magic != CK_MAGIC_DEVICE)
        return ck_fail(CK_ERR_INVALID_ARGUMENT, "%s: device handle %p is corrupted (bad magic word)", fn,
                       (const void *)dev);
    return s;
}

ck_status ck_device_close(ck_device *dev)
{
    if (!dev)
        return CK_OK;
    /* Unregistering first makes a second close (or a close racing another)
     * fail here without touching the memory. */
    if (!ck_handle_unregister(dev, CK_HANDLE_DEVICE))
        return ck_handle_check(dev, CK_HANDLE_DEVICE, "ck_device_close");
    if (dev->probe_program)
        clReleaseProgram(dev->probe_program);
    /* A queue with a command that never ran (the device was busy: dev->stuck)
     * is not waited on: it and its context are left as they are. */
    if (dev->queue && !__atomic_load_n(&dev->stuck, __ATOMIC_ACQUIRE)) {
        clFinish(dev->queue);
        clReleaseCommandQueue(dev->queue);
    }
    if (dev->context && !__atomic_load_n(&dev->stuck, __ATOMIC_ACQUIRE) && !park_context(dev->context))
        clReleaseContext(dev->context);
    ck_handle_retire(dev, &dev->magic, CK_HANDLE_DEVICE);
    return CK_OK;
}

const ck_device_info *ck_device_get_info(const ck_device *dev)
{
    return dev && ck_handle_is_live(dev, CK_HANDLE_DEVICE) ? &dev->info : NULL;
}
