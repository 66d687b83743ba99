/* apps/game/game_cpu.c: Connect-Four rules, static evaluation and the
 * sequential minimax reference (see game.h; game.cl has the device twins). */
#include "game.h"

#include <stdio.h>
#include <string.h>

static uint64_t bottom_bit(unsigned c) { return 1ull << (7 * c); }
static uint64_t top_bit(unsigned c) { return 1ull << (7 * c + 5); }

int app_game_can_play(app_game_pos p, unsigned col) { return col < 7 && (p.mask & top_bit(col)) == 0; }

app_game_pos app_game_play(app_game_pos p, unsigned col)
{
    app_game_pos q;
    q.cur = p.cur ^ p.mask; /* the opponent moves next */
    q.mask = p.mask | (p.mask + bottom_bit(col));
    return q;
}

int app_game_won(uint64_t b)
{
    static const unsigned shift[4] = {1, 7, 6, 8};
    for (int i = 0; i < 4; ++i) {
        uint64_t m = b & (b >> shift[i]);
        if (m & (m >> (2 * shift[i])))
            return 1;
    }
    return 0;
}

int app_game_full(app_game_pos p) { return __builtin_popcountll(p.mask) == 42; }

int32_t app_game_eval(uint64_t ours, uint64_t theirs)
{
    static const int32_t w[5] = {0, 1, 5, 50, 1000};
    static const int dc[4] = {1, 0, 1, 1}, dr[4] = {0, 1, 1, -1};
    int32_t s = 0;
    for (int c = 0; c < 7; ++c)
        for (int r = 0; r < 6; ++r)
            for (int d = 0; d < 4; ++d) {
                int ec = c + 3 * dc[d], er = r + 3 * dr[d];
                if (ec > 6 || er < 0 || er > 5)
                    continue;
                int a = 0, b = 0;
                for (int k = 0; k < 4; ++k) {
                    uint64_t bit = 1ull << (7 * (c + k * dc[d]) + r + k * dr[d]);
                    a += (ours & bit) != 0;
                    b += (theirs & bit) != 0;
                }
                if (b == 0)
                    s += w[a];
                else if (a == 0)
                    s -= w[b];
            }
    const uint64_t centre = 0x3full << 21;
    s += 3 * (__builtin_popcountll(ours & centre) - __builtin_popcountll(theirs & centre));
    return s;
}

int app_game_parse(const char *s, app_game_pos *out, char *err, size_t err_len)
{
    app_game_pos p = {0, 0};
    for (size_t i = 0; s && s[i]; ++i) {
        if (s[i] < '1' || s[i] > '7') {
            snprintf(err, err_len, "game position \"%s\": character %zu is not a column 1..7", s, i + 1);
            return -1;
        }
        unsigned c = (unsigned)(s[i] - '1');
        if (!app_game_can_play(p, c)) {
            snprintf(err, err_len, "game position \"%s\": move %zu plays in full column %u", s, i + 1, c + 1);
            return -1;
        }
        p = app_game_play(p, c);
        if (app_game_won(p.cur ^ p.mask)) {
            snprintf(err, err_len, "game position \"%s\": move %zu wins, the game is over", s, i + 1);
            return -1;
        }
    }
    if (app_game_full(p)) {
        snprintf(err, err_len, "game position \"%s\": the board is full", s ? s : "");
        return -1;
    }
    *out = p;
    return 0;
}

/* Value of the legal, non-terminal node p at `level` (we move at even levels). */
static int32_t minimax(app_game_pos p, unsigned level, unsigned depth, uint64_t *nodes)
{
    int ismax = (level & 1u) == 0;
    if (level == depth) {
        uint64_t ours = ismax ? p.cur : p.cur ^ p.mask;
        return app_game_eval(ours, p.mask ^ ours);
    }
    int32_t best = ismax ? -APP_GAME_INF : APP_GAME_INF;
    for (unsigned c = 0; c < 7; ++c) {
        if (!app_game_can_play(p, c))
            continue;
        app_game_pos q = app_game_play(p, c);
        ++*nodes;
        int32_t v;
        if (app_game_won(q.cur ^ q.mask))
            v = ismax ? APP_GAME_WIN - (int32_t)(level + 1) : -(APP_GAME_WIN - (int32_t)(level + 1));
        else if (app_game_full(q))
            v = 0;
        else
            v = minimax(q, level + 1, depth, nodes);
        best = ismax ? (v > best ? v : best) : (v < best ? v : best);
    }
    return best;
}

void app_game_cpu(app_game_pos p, unsigned depth, app_game_result *out)
{
    memset(out, 0, sizeof *out);
    out->nodes = 1;
    out->root = -APP_GAME_INF;
    for (unsigned c = 0; c < 7; ++c) {
        if (!app_game_can_play(p, c)) {
            out->move[c] = APP_GAME_ILLEGAL;
            continue;
        }
        app_game_pos q = app_game_play(p, c);
        ++out->nodes;
        int32_t v;
        if (app_game_won(q.cur ^ q.mask))
            v = APP_GAME_WIN - 1;
        else if (app_game_full(q))
            v = 0;
        else
            v = minimax(q, 1, depth, &out->nodes);
        out->move[c] = v;
        if (v > out->root)
            out->root = v;
    }
}

uint64_t app_game_slots(unsigned depth)
{
    uint64_t s = 0, p = 1;
    for (unsigned i = 0; i <= depth; ++i, p *= 7)
        s += p;
    return s;
}

int app_game_check(const app_game_result *got, const app_game_result *want, char *msg, size_t msg_len)
{
    int bad = 0;
    size_t used = 0;
    if (msg_len)
        msg[0] = 0;
    for (int c = 0; c < 7; ++c)
        if (got->move[c] != want->move[c]) {
            int k = snprintf(msg + used, used < msg_len ? msg_len - used : 0, "%smove %d: got %d, expected %d",
                             bad ? "; " : "", c + 1, got->move[c], want->move[c]);
            used += k > 0 && used + (size_t)k < msg_len ? (size_t)k : 0;
            ++bad;
        }
    if (got->nodes != want->nodes) {
        snprintf(msg + used, used < msg_len ? msg_len - used : 0, "%snodes: got %llu, expected %llu",
                 bad ? "; " : "", (unsigned long long)got->nodes, (unsigned long long)want->nodes);
        ++bad;
    }
    return bad ? 1 : 0;
}
