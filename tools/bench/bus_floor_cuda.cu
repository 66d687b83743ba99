// bus_floor_cuda: the floor of a host -> device -> host round trip through
// pinned host memory, for the forms of polling the megakernel uses and a few
// it could use instead. The host writes a request word (a sequence number)
// and spins until the device's answer word holds it; one or more device
// threads poll the request word and answer. The megakernel's task poller
// reads the table's pairs 32 bytes at a time with relaxed system-scope loads
// and answers with a system-scope release, beside a host that spins on the
// line it polls; each row changes one of those choices, so the table says
// what each costs on this bus, and what no design on top of it can beat.
// Built where nvcc exists (the lent NVIDIA machine):
//   nvcc -O2 -arch=sm_90 tools/bench/bus_floor_cuda.cu -o /tmp/bus_floor_cuda
// Usage: bus_floor_cuda [ROUNDS]   (default 5000 round trips per row)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                   \
  do {                                                                          \
    cudaError_t e_ = (x);                                                       \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "bus_floor_cuda: %s: %s\n", #x, cudaGetErrorString(e_));  \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

enum { LD_VOLATILE, LD_RELAXED_SYS, LD_ACQUIRE_SYS, LD_PAIRS32 };
enum { ST_VOLATILE, ST_RELEASE_SYS, ST_FENCE_SYS, ST_RELEASE_GPU, ST_FENCE_GPU };
// What the answering thread writes before its answer, as a task's last group
// does before its done state: nothing; two words of host memory (the task's
// device times); those and a word of device memory (the kernel's output).
enum { PRE_NONE, PRE_HOST2, PRE_HOST2_DEV };

// One poll of the request word in the given form (the 32-byte form is the
// task table's four pairs: the request is the low half of the first).
template <int LD>
__device__ __forceinline__ unsigned poll(const unsigned *p) {
  unsigned v;
  if (LD == LD_VOLATILE) {
    asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if (LD == LD_RELAXED_SYS) {
    asm volatile("ld.relaxed.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else if (LD == LD_ACQUIRE_SYS) {
    asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  } else {
    unsigned long long a, b, c, d;
    asm volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%4];\n\t"
                 "ld.relaxed.sys.global.v2.u64 {%2, %3}, [%4+16];"
                 : "=l"(a), "=l"(b), "=l"(c), "=l"(d) : "l"(p) : "memory");
    v = (unsigned)(a ^ (b & 0) ^ (c & 0) ^ (d & 0));
  }
  return v;
}

template <int ST>
__device__ __forceinline__ void answer(unsigned *p, unsigned v) {
  if (ST == ST_VOLATILE)
    asm volatile("st.volatile.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if (ST == ST_RELEASE_SYS)
    asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if (ST == ST_FENCE_SYS)
    asm volatile("fence.acq_rel.sys;\n\tst.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if (ST == ST_RELEASE_GPU)
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else
    asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// The stores before the answer (PRE_*): the sequence number into host words
// pre[0] and pre[1] (the host checks them when it sees the answer: whether
// the answer's form kept them in order) and into device word dev[0].
template <int PRE>
__device__ __forceinline__ void before_answer(unsigned *pre, unsigned *dev, unsigned v) {
  if (PRE == PRE_NONE) return;
  asm volatile("st.relaxed.sys.global.u32 [%0], %2;\n\tst.relaxed.sys.global.u32 [%1], %2;"
               ::"l"(pre), "l"(pre + 1), "r"(v) : "memory");
  if (PRE == PRE_HOST2_DEV)
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(dev), "r"(v) : "memory");
}

// The first `pollers` blocks' thread 0 poll with D loads in flight (issued
// about 1.6 us / D apart), answer every new request they see, and stop after
// the last one or when the host says so. A poll whose value was used is
// issued again after the answer: a release store waits for every load in
// flight, so a poll issued before it would delay the answer by a bus trip.
// The other blocks only read another line of host memory, as other agents
// of the megakernel do (the scheduler the ring's head while the task poller
// reads the table), until the host stops them.
template <int LD, int ST, int D, int PRE = PRE_NONE>
__global__ void pong(const unsigned *req, unsigned *ans, const unsigned *stop, unsigned n, unsigned pollers,
                     const unsigned *other, unsigned *pre, unsigned *dev) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x >= pollers) {
    for (;;) {
      unsigned v = poll<LD>(other);
      if (v || *(volatile const unsigned *)stop) break;
    }
    return;
  }
  unsigned a[D];
#pragma unroll
  for (int j = 0; j < D; ++j) {
    a[j] = poll<LD>(req);
    if (D > 1) __nanosleep(1600 / D);
  }
  unsigned want = 1;
  for (unsigned spins = 0; want <= n; ++spins) {
#pragma unroll
    for (int j = 0; j < D; ++j) {
      unsigned v = a[j];
      if (v >= want && v <= n) {
        before_answer<PRE>(pre, dev, v);
        answer<ST>(ans, v);
        want = v + 1;
      }
      a[j] = poll<LD>(req);
    }
    if ((spins & 1023u) == 0 && *(volatile const unsigned *)stop) break;
  }
}

struct row {
  const char *name;
  void (*kernel)(const unsigned *, unsigned *, const unsigned *, unsigned, unsigned, const unsigned *, unsigned *,
                 unsigned *);
  int pollers, same_line, others, check_pre; // check_pre: the host checks the words stored before the answer
};

static double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 5000;
  if (rounds < 100 || rounds > 1000000) {
    fprintf(stderr, "usage: bus_floor_cuda [ROUNDS in 100..1000000]\n");
    return 2;
  }
  const row rows[] = {
      {"u32 ld.volatile, st.volatile (DESIGN's floor)", pong<LD_VOLATILE, ST_VOLATILE, 1>, 1, 0, 0},
      {"u32 ld.relaxed.sys, st.volatile", pong<LD_RELAXED_SYS, ST_VOLATILE, 1>, 1, 0, 0},
      {"u32 ld.acquire.sys, st.volatile", pong<LD_ACQUIRE_SYS, ST_VOLATILE, 1>, 1, 0, 0},
      {"u32 ld.volatile, st.release.sys", pong<LD_VOLATILE, ST_RELEASE_SYS, 1>, 1, 0, 0},
      {"u32 ld.volatile, fence.acq_rel.sys + st.relaxed.sys", pong<LD_VOLATILE, ST_FENCE_SYS, 1>, 1, 0, 0},
      {"u32 ld.relaxed.sys, st.release.sys", pong<LD_RELAXED_SYS, ST_RELEASE_SYS, 1>, 1, 0, 0},
      {"32 B relaxed.sys (task pairs), st.release.sys", pong<LD_PAIRS32, ST_RELEASE_SYS, 1>, 1, 0, 0},
      {"32 B, answer on the polled line (as the table)", pong<LD_PAIRS32, ST_RELEASE_SYS, 1>, 1, 1, 0},
      {"32 B, 2 polls in flight, st.volatile", pong<LD_PAIRS32, ST_VOLATILE, 2>, 1, 0, 0},
      {"32 B, 4 polls in flight, st.volatile", pong<LD_PAIRS32, ST_VOLATILE, 4>, 1, 0, 0},
      {"32 B, 2 polls in flight, st.release.sys", pong<LD_PAIRS32, ST_RELEASE_SYS, 2>, 1, 0, 0},
      {"32 B, 4 pollers (blocks) of the line", pong<LD_PAIRS32, ST_RELEASE_SYS, 1>, 4, 0, 0},
      {"32 B, 1 other block reading another line", pong<LD_PAIRS32, ST_RELEASE_SYS, 1>, 1, 0, 1},
      {"32 B, 3 other blocks reading another line", pong<LD_PAIRS32, ST_RELEASE_SYS, 1>, 1, 0, 3},
      {"u32 volatile, 1 other block reading another line", pong<LD_VOLATILE, ST_VOLATILE, 1>, 1, 0, 1},
      // The answer's scope, as a task's done state: alone, after the task's
      // two host words (checked by the host), and after a device word too.
      {"u32 ld.volatile, st.release.gpu", pong<LD_VOLATILE, ST_RELEASE_GPU, 1>, 1, 0, 0},
      {"u32 ld.volatile, fence.acq_rel.gpu + st.relaxed.sys", pong<LD_VOLATILE, ST_FENCE_GPU, 1>, 1, 0, 0},
      {"32 B, 2 host words, st.release.sys", pong<LD_PAIRS32, ST_RELEASE_SYS, 1, PRE_HOST2>, 1, 1, 0, 1},
      {"32 B, 2 host words, st.release.gpu", pong<LD_PAIRS32, ST_RELEASE_GPU, 1, PRE_HOST2>, 1, 1, 0, 1},
      {"32 B, 2 host words, st.volatile", pong<LD_PAIRS32, ST_VOLATILE, 1, PRE_HOST2>, 1, 1, 0, 1},
      {"32 B, 2 host + 1 device word, st.release.sys", pong<LD_PAIRS32, ST_RELEASE_SYS, 1, PRE_HOST2_DEV>, 1, 1, 0, 1},
      {"32 B, 2 host + 1 device word, st.release.gpu", pong<LD_PAIRS32, ST_RELEASE_GPU, 1, PRE_HOST2_DEV>, 1, 1, 0, 1},
      {"32 B, 2 host + 1 device word, fence.gpu + st.sys", pong<LD_PAIRS32, ST_FENCE_GPU, 1, PRE_HOST2_DEV>, 1, 1, 0, 1},
  };
  unsigned *h = nullptr, *d = nullptr, *dev = nullptr;
  CK(cudaHostAlloc((void **)&h, 4096, cudaHostAllocMapped));
  CK(cudaHostGetDevicePointer((void **)&d, h, 0));
  CK(cudaMalloc((void **)&dev, 256));
  printf("%-50s %8s %8s %8s %8s %s\n", "form (rounds after 200 warm-up)", "min us", "median", "p99", "max",
         "host words behind the answer");
  for (const row &r : rows) {
    std::fill(h, h + 1024, 0u);
    unsigned *req = &h[0], *ans = &h[r.same_line ? 2 : 64], *stop = &h[128];
    unsigned n = rounds + 200;
    // Request at word 0 (line 0); answer at word 2 (line 0) or 64 (line 2);
    // stop flag at word 128; the other blocks read word 256 (line 8); the
    // words stored before the answer at 512 and 513 (line 16, as a task's
    // device times are on another line than its state).
    unsigned *pre = &h[512];
    r.kernel<<<r.pollers + r.others, 32>>>(d, d + (r.same_line ? 2 : 64), d + 128, n, r.pollers, d + 256, d + 512,
                                           dev);
    CK(cudaGetLastError());
    std::vector<double> t;
    t.reserve(n);
    bool lost = false;
    unsigned behind = 0; // answers seen before the words stored ahead of them
    for (unsigned i = 1; i <= n && !lost; ++i) {
      double t0 = now_us();
      __atomic_store_n(req, i, __ATOMIC_RELEASE);
      while (__atomic_load_n(ans, __ATOMIC_ACQUIRE) != i)
        if (now_us() - t0 > 1e6) { lost = true; break; }
      if (i > 200) t.push_back(now_us() - t0);
      if (r.check_pre && !lost)
        behind += __atomic_load_n(&pre[0], __ATOMIC_ACQUIRE) != i || __atomic_load_n(&pre[1], __ATOMIC_ACQUIRE) != i;
    }
    __atomic_store_n(stop, 1u, __ATOMIC_RELEASE);
    CK(cudaDeviceSynchronize());
    if (lost || t.empty()) {
      printf("%-50s no answer within 1 s\n", r.name);
      continue;
    }
    std::sort(t.begin(), t.end());
    printf("%-50s %8.2f %8.2f %8.2f %8.2f", r.name, t.front(), t[t.size() / 2], t[t.size() * 99 / 100], t.back());
    if (r.check_pre)
      printf(" %u of %u", behind, n);
    printf("\n");
  }
  CK(cudaFree(dev));
  CK(cudaFreeHost(h));
  return 0;
}
