/* resume_kernels.cl: user-side test program for the PoCL tests of the stitcher. Every
 * cooperative kernel writes a per-work-item trace through T(); T(MARK(p)) is written just
 * before fork point p, so that the trace of a run resumed at the k-th visit of p must equal
 * the part of the uninterrupted trace after the k-th MARK(p). Everything a kernel does
 * after a fork point depends only on transmit variables and on global memory. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define CKT_MAXT 400
#define MARK(p) (0x7F000000 | (p))
/* T(v): append v to this work-item's trace; the comment says request_fork() harmlessly */
#define T(v) do { uint l_ = get_local_id(0); uint c_ = cnt[l_]++; \
                  if (c_ < CKT_MAXT) trace[l_ * CKT_MAXT + c_] = (int)(v); } while (0)

/* Nested for loops, continue and break, barriers and a local array in the loop bodies. */
kernel void nested_for(global int *trace, global uint *cnt, int n, int m) {
  transmit int i = 0;
  transmit int j = 0;
  transmit int acc = 0;
  local int tmp[64];
  for (i = 0; i < n; i++) {
    for (j = 0; j < m; j++) {
      if ((i + j) % 4 == 3) continue;
      tmp[get_local_id(0)] = i * j + (int)get_local_id(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      acc += tmp[(get_local_id(0) + 1) % get_local_size(0)] -
             (int)((get_local_id(0) + 1) % get_local_size(0));
      barrier(CLK_LOCAL_MEM_FENCE);
      T(1000 * i + 10 * j + 1);
      T(MARK(1));
      request_fork();
      T(1000 * i + 10 * j + 2);
      T(acc);
      if (i == 2 && j == 3) break;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    T(1000 * i + 9);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  T(acc + 5);
}

/* do-while around while; a fork point inside an if inside the while, continue and break
 * after it; a fork point in the do-while body followed by continue. */
kernel void whiles(global int *trace, global uint *cnt, int n) {
  transmit int i = 0;
  transmit int k = 0;
  transmit int s = 0;
  do {
    k = 0;
    while (k < n) {
      k++;
      s += (i + k) % 4;
      barrier(CLK_LOCAL_MEM_FENCE);
      T(100 * i + k);
      if (s % 3 == 0) {
        T(MARK(1));
        request_fork();
        T(s);
        if (k == 3) continue;
      }
      if (s > 12 + i) break;
      T(-s);
    }
    i++;
    T(MARK(2));
    request_fork();
    if (i == 2) continue;
    T(i * 1000);
    barrier(CLK_LOCAL_MEM_FENCE);
  } while (i < n);
  T(s + 7);
}

/* switch with continue (binds to the loop) and break (binds to the switch), before and
 * after the fork point. */
kernel void switchy(global int *trace, global uint *cnt, int n) {
  transmit int k = 0;
  transmit int s = 0;
  while (k < n) {
    k++;
    switch (k % 5) {
    case 0: s += 1; break;
    case 1: continue;
    default: s += k; break;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    T(MARK(1));
    request_fork();
    switch (k % 3) {
    case 0: T(5); continue;
    case 1: break;
    default: T(6);
    }
    if (s > 40) break;
    T(-s);
  }
  T(s + 7);
}

/* The shape of the paper's Figure 4 (graph traversal). */
typedef struct { int size; int data[64]; } nodes;

void process_node(global int *vals, global nodes *in, int i, global nodes *out, int level) {
  int v = in->data[i];
  vals[i] += v + level;
  if (i < in->size - 1) out->data[i] = (v * 3 + level) % 101;
  if (i == 0) out->size = in->size - 1;
}
void swap(global nodes **a, global nodes **b) { global nodes *t = *a; *a = *b; *b = t; }
void reset(global nodes *n) {
  if (get_global_id(0) == 0) n->size = 0;
  global_barrier();
}

kernel void graph_app(global int *trace, global uint *cnt, global int *vals,
                      global nodes *n0, global nodes *n1) {
  transmit int level = 0;
  transmit global nodes *in_nodes = n0;
  transmit global nodes *out_nodes = n1;
  while (in_nodes->size > 0) {
    int tid = get_global_id(0);
    int stride = get_global_size(0);
    for (int i = tid; i < in_nodes->size; i += stride)
      process_node(vals, in_nodes, i, out_nodes, level);
    swap(&in_nodes, &out_nodes);
    T(MARK(1));
    resizing_global_barrier();
    reset(out_nodes);
    level++;
    T(MARK(2));
    resizing_global_barrier();
    T(level);
  }
  T(MARK(9) + level);
}

/* The work-stealing shape: offer_kill and request_fork at the top of the main loop. */
kernel void steal(global int *trace, global uint *cnt, global int *head, global int *out,
                  int ntasks) {
  local int task;
  while (1) {
    T(MARK(50));
    offer_kill();
    T(MARK(1));
    request_fork();
    int q = get_group_id(0);
    if (get_local_id(0) == 0) task = atomic_inc(head);
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = task;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t >= ntasks) break;
    out[t * (int)get_local_size(0) + (int)get_local_id(0)] = t * 7 + q;
    T(t);
  }
  T(MARK(9));
}

/* Fork points in no loop: forward goto to the point after the call. */
kernel void straight(global int *trace, global uint *cnt, int x) {
  transmit int a = x * 2;
  int b = 5;
  T(a + b);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x > 0) {
    a += 1;
    T(MARK(1));
    request_fork();
    T(a + 100);
  } else {
    T(-1);
  }
  T(MARK(2));
  resizing_global_barrier();
  T(a + 200);
  for (int r = 0; r < 3; r++) {
    barrier(CLK_LOCAL_MEM_FENCE);
    T(a + r);
  }
}

/* Three nested loops (for / while / for with a declared index) and breaks at two levels. */
kernel void deep(global int *trace, global uint *cnt, int n) {
  transmit int a = 0;
  transmit int b = 0;
  transmit int c = 0;
  transmit int tot = 0;
  for (a = 0; a < n; a++) {
    b = 0;
    while (b < n) {
      for (int cc = 0; cc < n; cc++) {
        c = cc;
        if (c == b) continue;
        tot += a * 100 + b * 10 + c;
        barrier(CLK_LOCAL_MEM_FENCE);
        T(MARK(1));
        request_fork();
        cc = c;
        T(tot);
        if (c + b > n + 1) break;
      }
      b++;
      if (b == n - 1 && a == 1) break;
    }
    T(-tot);
  }
  T(tot + 1);
}

/* The outermost loop declares its index and has an unroll pragma; a resizing barrier in it. */
kernel void forinit(global int *trace, global uint *cnt, int n) {
  transmit int tr = 0;
  transmit int sum = 0;
#pragma unroll 1
  for (int r = 0; r < n; r++) {
    tr = r;
    sum += r;
    T(MARK(1));
    resizing_global_barrier();
    r = tr;
    T(sum * 10 + r);
  }
  T(sum);
}

/* transmit on a for-init counter and on variables of nested blocks, one name declared in
 * two sibling blocks (two fields of the transmit struct), a vector. */
kernel void scoped(global int *trace, global uint *cnt, int n) {
#pragma unroll 1
  for (transmit int r = 0; r < n; r++) {
    if (r & 1) {
      transmit int x = r * 3;
      T(MARK(1));
      request_fork();
      T(x);
    } else {
      transmit float x = (float)r * 0.5f + 1.0f;
      T(MARK(2));
      resizing_global_barrier();
      T((int)(x * 4.0f) + 100);
    }
  }
  {
    transmit int4 v = (int4)(n, n + 1, n + 2, n + 3);
    T(MARK(3));
    request_fork();
    T(v.x + v.y * 10 + v.z * 100 + v.w * 1000);
  }
}


/* Fork points inside helpers (inlined by the stitcher): a resizing barrier in a loop of a
 * helper that a helper calls in a loop of the kernel, a return from inside that loop, a
 * request_fork after the call, and the same helper called again after the kernel's loop.
 * MARK(p) precedes fork point p of the inlined kernel (its copies are numbered in source
 * order), so the callers pass p. TR takes the trace buffers as arguments: a macro used in
 * an inlined helper may not name the helper's own parameters. */
#define TR(tr, cn, v) do { uint l_ = get_local_id(0); uint c_ = (cn)[l_]++; \
                           if (c_ < CKT_MAXT) (tr)[l_ * CKT_MAXT + c_] = (int)(v); } while (0)

int hk_inner(global int *tr, global uint *cn, int v, int p) {
  for (transmit int j = 0; j < v; j++) {
    TR(tr, cn, j * 10 + v);
    if (j == 2) return j + 100;
    TR(tr, cn, MARK(p));
    resizing_global_barrier();
  }
  return -1;
}

void hk_outer(global int *tr, global uint *cn, int n) {
  for (transmit int i = 0; i < n; i++) {
    int r = hk_inner(tr, cn, i, 1);
    TR(tr, cn, r);
    if (r > 100) return;
    TR(tr, cn, MARK(2));
    request_fork();
    TR(tr, cn, i * 1000);
  }
}

kernel void helpers(global int *trace, global uint *cnt, int n) {
  transmit int t = 0;
  while (t < 2) {
    hk_outer(trace, cnt, n);
    t++;
    T(t);
  }
  int z = hk_inner(trace, cnt, 4, 3);
  T(z);
}

/* Non-cooperative: logical ids in the kernel and in helpers. */
size_t helper_gid(void) { return get_global_id(0); }
uint helper_ng(uint d);
uint helper_ng(uint d) { return get_num_groups(d) + (uint)get_global_size(d) * 0u; }

kernel void ids(global int *trace, global uint *cnt, global ulong *out) {
  uint l = get_local_id(0);
  out[l * 6 + 0] = get_global_id(0);
  out[l * 6 + 1] = get_group_id(0);
  out[l * 6 + 2] = get_num_groups(0);
  out[l * 6 + 3] = get_global_size(0);
  out[l * 6 + 4] = get_global_offset(0) + 77;
  out[l * 6 + 5] = helper_gid() * 1000 + helper_ng(0);
}

#ifndef CKT_REFERENCE /* the plain-OpenCL reference build rejects size_t/bool parameters */
/* Non-cooperative: every kind of parameter, unpacked by ck_dispatch. */
typedef float real;
typedef struct { int x; } pod;
#define TILE(i) tile[(i)]

__kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void args(__global ulong *out, char c, uchar uc, short s, ushort us, int i, uint ui,
          long l, ulong ul, float f, double d, real r, size_t sz, int2 v2, float3 v3,
          int4 v4, float8 v8, uchar16 v16, __constant int *cp, __local int *lp,
          global pod *gp, local float *lp2, global pod *nul) {
  __local int tile[8];
  constant int bias[2] = {1000, 2000};
  uint lid = get_local_id(0);
  TILE(lid) = (int)lid * 3;
  lp[lid] = (int)lid + 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int k = 0;
    out[k++] = (ulong)(long)c;
    out[k++] = uc;
    out[k++] = (ulong)(long)s;
    out[k++] = us;
    out[k++] = (ulong)(long)i;
    out[k++] = ui;
    out[k++] = (ulong)l;
    out[k++] = ul;
    out[k++] = as_uint(f);
    out[k++] = as_ulong(d);
    out[k++] = as_uint(r);
    out[k++] = sz;
    out[k++] = (ulong)(long)v2.x; out[k++] = (ulong)(long)v2.y;
    out[k++] = as_uint(v3.x); out[k++] = as_uint(v3.y); out[k++] = as_uint(v3.z);
    out[k++] = (ulong)(long)v4.w;
    out[k++] = as_uint(v8.s7);
    out[k++] = v16.sf;
    out[k++] = (ulong)(long)(cp[0] + cp[1]);
    out[k++] = (ulong)((local uchar *)lp2 - (local uchar *)lp);
    out[k++] = (ulong)(long)gp->x;
    out[k++] = nul == 0;
    out[k++] = (ulong)(long)(TILE(7) + lp[7] + bias[1]);
  }
}
#endif
