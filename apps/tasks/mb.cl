/* apps/tasks/mb.cl: the MB (Mandelbrot) narrow-task benchmark's kernel
 * (owner: apps, tasks). One task = one work-group = one 64x64 image of its
 * own window of the complex plane: win[4 * t + 0..3] = x0, y0, dx, dy
 * (floats chosen by the host), pixel (x, y) is c = (x0 + x * dx, y0 + y * dy)
 * and its value is the number of iterations z <- z^2 + c, from z = 0, before
 * |z|^2 > 4, at most max_iter. The windows differ in size and place, so the
 * work per task is irregular (from a few iterations a pixel to max_iter).
 * Work-items stride over the 4096 pixels (any wg). The float operations are
 * those of the CPU reference, in the same order, with contraction to fma
 * off, so the counts match exactly. */
#pragma OPENCL FP_CONTRACT OFF

#define MB_W 64

kernel void tb_mb(global const float *win, global int *out, int max_iter, int task_base)
{
    int task = task_base + (int)get_group_id(0);
    int lid = (int)get_local_id(0);
    int wg = (int)get_local_size(0);
    float x0 = win[4 * task + 0], y0 = win[4 * task + 1];
    float dx = win[4 * task + 2], dy = win[4 * task + 3];
    global int *o = out + (size_t)task * (MB_W * MB_W);
    for (int p = lid; p < MB_W * MB_W; p += wg) {
        float px = (float)(p % MB_W) * dx;
        float py = (float)(p / MB_W) * dy;
        float cr = x0 + px;
        float ci = y0 + py;
        float zr = 0.0f, zi = 0.0f;
        int it = 0;
        while (it < max_iter) {
            float zr2 = zr * zr;
            float zi2 = zi * zi;
            if (zr2 + zi2 > 4.0f)
                break;
            float t = zr * zi;
            zi = (t + t) + ci;
            zr = (zr2 - zi2) + cr;
            it++;
        }
        o[p] = it;
    }
}
