// dispatch_path_cuda: what each step of a one-group task's path through the
// megakernel costs on top of the bus floor (tools/bench/bus_floor_cuda.cu), on the
// device and as the host sees it. A block of 64 threads stands for a worker:
// its thread 0 polls a line of pinned host memory while the other threads
// wait at the block barrier (as the megakernel's workers do in ck_find_work),
// and answers each new request with a system-scope release store, as a
// task's done state is written. Each row adds one step of the megakernel's
// path (megakernel/ck_scheduler.cl: ck_task_publish and ck_worker) to the
// row before it, so the differences say where a round trip goes; the last
// rows are the "express" forms, where the request line carries the work's
// arguments with a tag in every word, so one trip brings all of it.
// Per row: the host's round trip (median, p99) and, from the device clock,
// the time from the poll that saw the request to the answer's store (the
// device's share); the rest is the bus and the host.
// Built where nvcc exists (the lent NVIDIA machine):
//   nvcc -O2 -arch=sm_90 tools/bench/dispatch_path_cuda.cu -o /tmp/dispatch_path_cuda
// Usage: dispatch_path_cuda [ROUNDS]   (default 5000 round trips per row)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "dispatch_path_cuda: %s: %s\n", #x, cudaGetErrorString(e_)); \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

// Steps, each a bit; a row is the set of steps it takes.
enum {
  S_ATOM = 1,      // take an idle unit: one atomic on a device word, result used
  S_PUBLISH = 2,   // claim word and visible count around a system-scope fence
  S_TOKEN = 4,     // let the poller token go with a release store
  S_BARDEV = 8,    // the group barrier with device-scope fences on each side
  S_ARGS = 16,     // eight argument words read from host memory by eight threads, then a device barrier
  S_STAMP = 32,    // thread 0: start time to host memory, the worker record, ticket and task count
  S_DONEBAR = 64,  // after the kernel: a device barrier before the done state
  S_LOOP = 128,    // four dependent device-memory loads between polls (tokens, demand, promised, queues)
  S_EXPRESS = 256, // the poll reads a 128-byte tagged line with 16 threads at once, checked by the group
  S_EXPRESS4 = 512 // thread 0 polls 32 bytes: tag + header + three tagged argument words
};

__device__ __forceinline__ unsigned long long gtimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned long long ld_sys64(const unsigned long long *p) {
  unsigned long long v;
  asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void ld_sys4x64(const unsigned long long *p, unsigned long long *w) {
  asm volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%4];\n\t"
               "ld.relaxed.sys.global.v2.u64 {%2, %3}, [%4+16];"
               : "=l"(w[0]), "=l"(w[1]), "=l"(w[2]), "=l"(w[3]) : "l"(p) : "memory");
}
__device__ __forceinline__ void st_rel_sys(unsigned *p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_relaxed_sys(unsigned *p, unsigned v) {
  asm volatile("st.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_rel_gpu(unsigned *p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned ld_relaxed_gpu(const unsigned *p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void bar_dev() {
  __threadfence();
  __syncthreads();
  __threadfence();
}

// Host line layout (64-bit words): request line at word 0 (for the express
// forms: 16 tagged words, each (tag << 32) | payload); arguments at word 32;
// start times at word 64; answer (u32) at word 96.
// Device words (u32): idle 0, claim 32, visible 64, token 96, record 128..,
// ticket 160, tasks 192, loop words 224.., sink 512.
template <int F>
__global__ void worker(const unsigned long long *host, unsigned *ans, const unsigned *stop, unsigned n,
                       unsigned *dev, unsigned long long *seen_t, unsigned long long *ans_t) {
  __shared__ unsigned bc[2];
  __shared__ unsigned long long line[16];
  __shared__ unsigned ok;
  unsigned tid = threadIdx.x;
  unsigned want = 1;
  for (;;) {
    // Find the next request.
    unsigned long long t_seen = 0;
    if (F & S_EXPRESS) {
      // Every thread of the group polls: 16 of them read one word each, in
      // one trip; the group checks the tags together.
      for (unsigned spins = 0;; ++spins) {
        if (tid < 16) line[tid] = ld_sys64(host + tid);
        if (tid == 0) ok = 1;
        __syncthreads();
        if (tid < 16 && (unsigned)(line[tid] >> 32) != want) ok = 0;
        __syncthreads();
        if (ok) break;
        if (tid == 0) bc[1] = (spins & 1023u) == 0 && *(volatile const unsigned *)stop;
        __syncthreads();
        if (bc[1]) return;
      }
      if (tid == 0) {
        t_seen = gtimer();
        bc[0] = want;
      }
    } else if (tid == 0) {
      for (unsigned spins = 0;; ++spins) {
        unsigned long long w[4];
        if (F & S_EXPRESS4) {
          ld_sys4x64(host, w);
          if ((unsigned)(w[0] >> 32) == want && (unsigned)(w[1] >> 32) == want && (unsigned)(w[2] >> 32) == want &&
              (unsigned)(w[3] >> 32) == want)
            break;
        } else {
          ld_sys4x64(host, w);
          if ((unsigned)w[0] == want) break;
        }
        if (F & S_LOOP) {
          unsigned x = ld_relaxed_gpu(dev + 224);
          x = ld_relaxed_gpu(dev + 256 + (x & 1u));
          x = ld_relaxed_gpu(dev + 288 + (x & 1u));
          x = ld_relaxed_gpu(dev + 320 + (x & 1u));
          if (x == 12345u) dev[512] = x;
        }
        if ((spins & 1023u) == 0 && *(volatile const unsigned *)stop) {
          want = 0;
          break;
        }
      }
      t_seen = gtimer();
      if (want && (F & S_ATOM)) {
        // The unit is always there (a real worker gives it back when idle again).
        if ((int)atomicSub(dev + 0, 1u) <= 0) dev[512] = 1u;
      }
      if (want && (F & S_PUBLISH)) {
        asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 32), "r"(want) : "memory");
        asm volatile("fence.acq_rel.sys;" ::: "memory");
        asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 64), "r"(want) : "memory");
      }
      if (want && (F & S_TOKEN)) st_rel_gpu(dev + 96, 0u);
      bc[0] = want;
    }
    if (F & S_BARDEV)
      bar_dev();
    else
      __syncthreads();
    unsigned v = bc[0];
    if (!v) return;
    if (F & S_ARGS) {
      if (tid < 8) dev[400 + tid] = (unsigned)ld_sys64(host + 32 + tid);
      bar_dev();
    }
    if (tid == 0 && (F & S_STAMP)) {
      unsigned long long now = gtimer();
      st_relaxed_sys((unsigned *)(host + 64), (unsigned)now);
      st_relaxed_sys((unsigned *)(host + 64) + 1, (unsigned)(now >> 32));
      asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 128), "r"(v) : "memory");
      asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 129), "r"(v) : "memory");
      asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 130), "r"(1u) : "memory");
      unsigned t = ld_relaxed_gpu(dev + 160);
      unsigned c = ld_relaxed_gpu(dev + 192);
      asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 192), "r"(c + 1u + (t & 0u)) : "memory");
    }
    __syncthreads();
    // The kernel: empty.
    if (F & S_DONEBAR)
      bar_dev();
    else
      __syncthreads();
    if (tid == 0) {
      if (F & S_DONEBAR) asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev + 130), "r"(0u) : "memory");
      unsigned long long t_ans = gtimer();
      st_rel_sys(ans, v);
      if (v <= n) {
        seen_t[v] = t_seen;
        ans_t[v] = t_ans;
      }
    }
    want = v + 1;
    if (v >= n) return;
  }
}

struct row {
  const char *name;
  void (*kernel)(const unsigned long long *, unsigned *, const unsigned *, unsigned, unsigned *,
                 unsigned long long *, unsigned long long *);
  int flags;
};

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

#define CUM0 0
#define CUM1 (S_ATOM)
#define CUM2 (CUM1 | S_PUBLISH)
#define CUM3 (CUM2 | S_TOKEN)
#define CUM4 (CUM3 | S_BARDEV)
#define CUM5 (CUM4 | S_ARGS)
#define CUM6 (CUM5 | S_STAMP)
#define CUM7 (CUM6 | S_DONEBAR)
#define CUM8 (CUM7 | S_LOOP)

static long long realtime_ns() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 5000;
  if (rounds < 100 || rounds > 1000000) {
    fprintf(stderr, "usage: dispatch_path_cuda [ROUNDS in 100..1000000]\n");
    return 2;
  }
  const row rows[] = {
      {"floor: 32 B poll, block barrier, release answer", worker<CUM0>, CUM0},
      {"+ idle unit (atomic on a device word)", worker<CUM1>, CUM1},
      {"+ publish (claim, fence.acq_rel.sys, visible)", worker<CUM2>, CUM2},
      {"+ poller token released (st.release.gpu)", worker<CUM3>, CUM3},
      {"+ device-scope group barrier", worker<CUM4>, CUM4},
      {"+ arguments read from host memory (2nd trip)", worker<CUM5>, CUM5},
      {"+ start time to host, record, ticket, count", worker<CUM6>, CUM6},
      {"+ device barrier before the done state", worker<CUM7>, CUM7},
      {"+ 4 dependent device loads between polls", worker<CUM8>, CUM8},
      {"all but the 2nd trip (arguments in the poll)", worker<CUM8 & ~S_ARGS>, CUM8 & ~S_ARGS},
      {"all but publish and token (poller runs it)", worker<CUM8 & ~(S_PUBLISH | S_TOKEN)>, CUM8 & ~(S_PUBLISH | S_TOKEN)},
      {"express4: 32 B tagged poll, unit, release", worker<S_EXPRESS4 | S_ATOM>, S_EXPRESS4 | S_ATOM},
      {"express4 + device barriers", worker<S_EXPRESS4 | S_ATOM | S_BARDEV | S_DONEBAR>,
       S_EXPRESS4 | S_ATOM | S_BARDEV | S_DONEBAR},
      {"express16: 128 B tagged group poll, unit, release", worker<S_EXPRESS | S_ATOM>, S_EXPRESS | S_ATOM},
      {"express16 + device barrier before done", worker<S_EXPRESS | S_ATOM | S_DONEBAR>,
       S_EXPRESS | S_ATOM | S_DONEBAR},
  };
  unsigned long long *h = nullptr, *d = nullptr;
  CK(cudaHostAlloc((void **)&h, 8192, cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer((void **)&d, h, 0));
  unsigned *dev = nullptr;
  CK(cudaMalloc((void **)&dev, 4096));
  unsigned long long *seen_t = nullptr, *ans_t = nullptr;
  unsigned n = rounds + 200;
  CK(cudaMalloc((void **)&seen_t, (n + 1) * 8ull));
  CK(cudaMalloc((void **)&ans_t, (n + 1) * 8ull));
  std::vector<unsigned long long> hs(n + 1), ha(n + 1);
  // The last two columns compare the device clock (%globaltimer) with the
  // host's CLOCK_REALTIME, which the driver keeps it close to: the request's
  // way to the device (host write -> the poll that saw it) and the answer's
  // way back (store -> host saw it). Meaningful only if the two clocks agree
  // to well under a microsecond; the device column needs only the device's.
  printf("%-52s %8s %8s %8s %10s %9s %9s\n", "path (rounds after 200 warm-up)", "min us", "median", "p99",
         "device us", "to dev", "to host");
  for (const row &r : rows) {
    std::fill(h, h + 1024, 0ull);
    CK(cudaMemset(dev, 0, 4096));
    unsigned one = 0x7fffffffu;
    CK(cudaMemcpy(dev, &one, 4, cudaMemcpyHostToDevice)); // idle units
    unsigned *ans = (unsigned *)(h + 96), *stop = (unsigned *)(h + 100);
    r.kernel<<<1, 64>>>(d, (unsigned *)(d + 96), (unsigned *)(d + 100), n, dev, seen_t, ans_t);
    CK(cudaGetLastError());
    std::vector<double> t;
    std::vector<long long> hw(n + 1), hr(n + 1);
    t.reserve(n);
    bool lost = false;
    bool express = (r.flags & (S_EXPRESS | S_EXPRESS4)) != 0;
    for (unsigned i = 1; i <= n && !lost; ++i) {
      double t0 = now_us();
      hw[i] = realtime_ns();
      if (express) {
        // Arguments first, then the header word; each word carries the tag.
        for (int j = 15; j >= 0; --j)
          if (j < 4 || (r.flags & S_EXPRESS))
            __atomic_store_n(&h[j], ((unsigned long long)i << 32) | (unsigned)(j * 7 + i), __ATOMIC_RELEASE);
      } else {
        for (int j = 0; j < 8; ++j) h[32 + j] = i + j;
        __atomic_store_n(&h[0], (unsigned long long)i, __ATOMIC_RELEASE);
      }
      while (__atomic_load_n(ans, __ATOMIC_ACQUIRE) != i)
        if (now_us() - t0 > 1e6) {
          lost = true;
          break;
        }
      hr[i] = realtime_ns();
      if (i > 200) t.push_back(now_us() - t0);
    }
    __atomic_store_n(stop, 1u, __ATOMIC_RELEASE);
    CK(cudaDeviceSynchronize());
    if (lost || t.empty()) {
      printf("%-52s no answer within 1 s\n", r.name);
      continue;
    }
    CK(cudaMemcpy(hs.data(), seen_t, (n + 1) * 8ull, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ha.data(), ans_t, (n + 1) * 8ull, cudaMemcpyDeviceToHost));
    std::vector<double> dv, to_dev, to_host;
    for (unsigned i = 201; i <= n; ++i) {
      dv.push_back((double)(ha[i] - hs[i]) / 1000.0);
      to_dev.push_back((double)((long long)hs[i] - hw[i]) / 1000.0);
      to_host.push_back((double)(hr[i] - (long long)ha[i]) / 1000.0);
    }
    std::sort(t.begin(), t.end());
    printf("%-52s %8.2f %8.2f %8.2f %10.2f %9.2f %9.2f\n", r.name, t.front(), t[t.size() / 2],
           t[t.size() * 99 / 100], median(dv), median(to_dev), median(to_host));
  }
  CK(cudaFree(seen_t));
  CK(cudaFree(ans_t));
  CK(cudaFree(dev));
  CK(cudaFreeHost(h));
  return 0;
}
