// ckbench_cuda: the CUDA peer of ckbench on the same GPU. Prints one JSON
// object: grid.sync() latency over a cooperative launch of BLOCKS blocks of
// THREADS threads, and launch + synchronize of an empty 1-block kernel
// (median, p99) and empty launches per second. Built where nvcc exists
// (tools/bench/device_bench.sh): nvcc -O2 -arch=sm_90 ckbench_cuda.cu -o ckbench_cuda
// Usage: ckbench_cuda BLOCKS THREADS ITERATIONS LAUNCHES
#include <cooperative_groups.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "ckbench_cuda: %s: %s\n", #x, cudaGetErrorString(e_));                       \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

__global__ void empty_kernel() {}

__global__ void syncs(unsigned n, unsigned *sink) {
  cg::grid_group g = cg::this_grid();
  for (unsigned i = 0; i < n; i++) g.sync();
  if (g.thread_rank() == 0) *sink = n;
}

static double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch()).count();
}

static float timed_syncs(unsigned blocks, unsigned threads, unsigned n, unsigned *sink, cudaEvent_t a,
                         cudaEvent_t b, cudaError_t *err) {
  void *args[] = {&n, &sink};
  cudaEventRecord(a);
  *err = cudaLaunchCooperativeKernel((void *)syncs, blocks, threads, args, 0, 0);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: ckbench_cuda BLOCKS THREADS ITERATIONS LAUNCHES\n");
    return 2;
  }
  unsigned blocks = atoi(argv[1]), threads = atoi(argv[2]), iters = atoi(argv[3]), launches = atoi(argv[4]);
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, syncs, threads, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned max_blocks = (unsigned)(per_sm * sms);
  if (blocks > max_blocks) blocks = max_blocks;
  unsigned *sink;
  CK(cudaMalloc(&sink, 4));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  cudaError_t err;
  const unsigned n = 2000;
  timed_syncs(blocks, threads, n, sink, a, b, &err); // warm-up
  CK(err);
  float t0 = timed_syncs(blocks, threads, 0, sink, a, b, &err);
  CK(err);
  float t1 = timed_syncs(blocks, threads, n, sink, a, b, &err);
  CK(err);
  double sync_us = (t1 - t0) * 1e3 / n;

  for (int i = 0; i < 50; i++) empty_kernel<<<1, threads>>>();
  CK(cudaDeviceSynchronize());
  std::vector<double> rt(iters);
  for (unsigned i = 0; i < iters; i++) {
    double s = now_us();
    empty_kernel<<<1, threads>>>();
    CK(cudaDeviceSynchronize());
    rt[i] = now_us() - s;
  }
  std::sort(rt.begin(), rt.end());
  double start = now_us();
  for (unsigned i = 0; i < launches; i++) empty_kernel<<<1, threads>>>();
  CK(cudaDeviceSynchronize());
  double per_s = launches / ((now_us() - start) * 1e-6);
  printf("{\"grid_sync_us\": %.3f, \"grid_sync_blocks\": %u, \"max_coresident_blocks\": %u, "
         "\"launch_rt_us_median\": %.2f, \"launch_rt_us_p99\": %.2f, \"launch_throughput_per_s\": %.0f}\n",
         sync_us, blocks, max_blocks, rt[iters / 2], rt[(size_t)(iters * 0.99)], per_s);
  return 0;
}
