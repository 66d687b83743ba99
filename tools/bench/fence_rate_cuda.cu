// fence_rate_cuda: how many task completions per second the GPU can tell the
// host, for each form of the completion store. A megakernel's worker ends a
// task by writing two device-clock words and then the entry's state word, a
// 64-bit system-scope release, into pinned host memory (the task table);
// this tool has B blocks do exactly that in a loop, each on entries of its
// own in a 4096-entry table, and prints completions per second for:
//   release.sys   st.release.sys.u64 (what the megakernel does)
//   fence.gpu     fence.acq_rel.gpu, then st.relaxed.sys.u64
//   relaxed       st.relaxed.sys.u64, no ordering at all (a ceiling)
//   batch8.sys    one release.sys store per 8 completions (a combiner's rate)
// So it says whether the system-scope release is what bounds the task rate.
// Built where nvcc exists (the lent NVIDIA machine):
//   nvcc -O2 -arch=sm_90 tools/bench/fence_rate_cuda.cu -o /tmp/fence_rate_cuda
// Usage: fence_rate_cuda [COMPLETIONS_PER_BLOCK]   (default 2000)
#include <chrono>
#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      fprintf(stderr, "fence_rate_cuda: %s: %s\n", #x, cudaGetErrorString(e_));  \
      return 1;                                                                  \
    }                                                                            \
  } while (0)

enum { F_RELEASE_SYS, F_FENCE_GPU, F_RELAXED, F_BATCH8_SYS, F_FORMS };
static const char *form_name[F_FORMS] = {"release.sys", "fence.gpu", "relaxed", "batch8.sys"};
#define SLOTS 4096u

template <int F>
__global__ void complete(unsigned long long *table, unsigned *times, unsigned n, unsigned *count) {
  if (threadIdx.x != 0) return;
  unsigned b = blockIdx.x, B = gridDim.x;
  for (unsigned i = 0; i < n; ++i) {
    unsigned slot = (i * B + b) % SLOTS;
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    asm volatile("st.relaxed.sys.global.v2.u32 [%0], {%1, %2};" ::"l"(times + 2 * slot), "r"((unsigned)now),
                 "r"((unsigned)(now >> 32)) : "memory");
    unsigned long long v = (unsigned long long)(i + 1) << 32 | slot;
    unsigned long long *p = table + slot;
    if (F == F_RELEASE_SYS || (F == F_BATCH8_SYS && (i & 7u) == 7u))
      asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
    else if (F == F_FENCE_GPU)
      asm volatile("fence.acq_rel.gpu;\n\tst.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
    else
      asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
    atomicAdd(count, 1u); // the finished count each task bumps in device memory
  }
}

template <int F>
static double run(int blocks, unsigned n, unsigned long long *table, unsigned *times, unsigned *count) {
  complete<F><<<blocks, 64>>>(table, times, 8, count); // warm up
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  auto t0 = std::chrono::steady_clock::now();
  complete<F><<<blocks, 64>>>(table, times, n, count);
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return (double)blocks * n / s;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], 0, 10) : 2000u;
  if (n == 0) {
    fprintf(stderr, "fence_rate_cuda: COMPLETIONS_PER_BLOCK must be a positive number\n");
    return 2;
  }
  unsigned long long *table;
  unsigned *times, *count;
  CK(cudaHostAlloc(&table, SLOTS * sizeof *table, cudaHostAllocMapped));
  CK(cudaHostAlloc(&times, 2 * SLOTS * sizeof *times, cudaHostAllocMapped));
  CK(cudaMalloc(&count, sizeof *count));
  unsigned long long *dtable;
  unsigned *dtimes;
  CK(cudaHostGetDevicePointer(&dtable, table, 0));
  CK(cudaHostGetDevicePointer(&dtimes, times, 0));
  const int block_counts[] = {32, 132, 528, 2375};
  printf("%-8s", "blocks");
  for (int f = 0; f < F_FORMS; ++f) printf(" %14s", form_name[f]);
  printf("   (completions per second, millions)\n");
  for (int bc : block_counts) {
    double r[F_FORMS] = {run<F_RELEASE_SYS>(bc, n, dtable, dtimes, count),
                         run<F_FENCE_GPU>(bc, n, dtable, dtimes, count),
                         run<F_RELAXED>(bc, n, dtable, dtimes, count),
                         run<F_BATCH8_SYS>(bc, n, dtable, dtimes, count)};
    printf("%-8d", bc);
    for (int f = 0; f < F_FORMS; ++f) {
      if (r[f] < 0) {
        fprintf(stderr, "fence_rate_cuda: a run failed: %s\n", cudaGetErrorString(cudaGetLastError()));
        return 1;
      }
      printf(" %14.3f", r[f] / 1e6);
    }
    printf("\n");
  }
  return 0;
}
