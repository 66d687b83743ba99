/* apps/game/game.h: Connect-Four look-ahead (the paper's game-tree app):
 * the rules and static evaluation shared with game.cl (keep them identical),
 * the CPU minimax reference, and game.cl's memory layout (APP_GM_* equal to
 * the GM_* constants there; the queue words APP_GM_QSTRIDE, _LO, _HI to
 * common/ws_pool.cl's WS_POOL_*).
 *
 * Board: 7 columns x 6 rows as bitboards (bit 7*col + row; bit 7*col + 6 is
 * a spare row that keeps lines from wrapping). A position is (cur, mask):
 * mask has every piece, cur the pieces of the player to move. The tree: the
 * root (level 0) is the given position, the player to move there is "us";
 * every node has 7 children, one per column. Rules at a child:
 *   - column full: the child is illegal: it has no value (APP_GAME_ILLEGAL at
 *     the root) and its parent ignores it (a node with no legal child is a
 *     full board, already a draw leaf);
 *   - the move wins (four in a row): a terminal leaf worth +(WIN - level) if
 *     we moved, -(WIN - level) if they did (quicker wins score higher);
 *   - the board is full: a terminal leaf worth 0;
 *   - at level game_depth: a leaf worth app_game_eval (ours minus theirs over
 *     the 69 lines of four: 1, 5, 50 for 1, 2, 3 pieces in a line the other
 *     side has no piece in, plus 3 per piece in the centre column);
 *   - else an inner node: the max of its children's values where we move
 *     (even levels), the min where they move.
 * Errors: int functions return 0 on success, -1 with a message in err. */
#ifndef APPS_GAME_H
#define APPS_GAME_H

#include <stddef.h>
#include <stdint.h>

#define APP_GAME_FILE "game/game.cl"
#define APP_GAME_KERNEL "game_coop"
#define APP_GAME_DEFAULT_POSITION "4453" /* a fixed opening: 4 plies, centre first */
#define APP_GAME_MAX_DEPTH 9u            /* 7^9 leaves: 47 M node slots, 380 MB   */
#define APP_GAME_WIN (1 << 20)
#define APP_GAME_INF (1 << 30)
#define APP_GAME_ILLEGAL (-0x7fffffff - 1)

#define APP_GM_QSTRIDE 16
#define APP_GM_LO 1
#define APP_GM_HI 2
#define APP_GM_TASK 8
#define APP_GM_PENDING 0
#define APP_GM_DONE 1
#define APP_GM_NODES 2
#define APP_GM_OVERFLOW 3
#define APP_GM_STEALS 4
#define APP_GM_COUNTERS 8

typedef struct {
    uint64_t cur, mask;
} app_game_pos;

typedef struct {
    int32_t move[7]; /* value of each root move (APP_GAME_ILLEGAL: full column) */
    int32_t root;    /* the root's value: max of the legal moves               */
    uint64_t nodes;  /* legal nodes of the tree, root and terminals included   */
} app_game_result;

/* Parses a position: digits 1..7, the columns played in turn from the empty
 * board. -1 (message) on another character, a full column, a move after a
 * win, or a full board (nothing to search). */
int app_game_parse(const char *s, app_game_pos *out, char *err, size_t err_len);
int app_game_can_play(app_game_pos p, unsigned col);
app_game_pos app_game_play(app_game_pos p, unsigned col);
/* Whether the pieces in bits have four in a row. */
int app_game_won(uint64_t bits);
int app_game_full(app_game_pos p);
/* Static value of a position for the side whose pieces are `ours`. */
int32_t app_game_eval(uint64_t ours, uint64_t theirs);
/* Minimax to `depth` plies below p (the rules above); depth >= 1. */
void app_game_cpu(app_game_pos p, unsigned depth, app_game_result *out);
/* Node slots of a tree of `depth` levels below the root: (7^(depth+1)-1)/6. */
uint64_t app_game_slots(unsigned depth);
/* Compares the seven root move values (all of them) and the node count;
 * 0 equal, 1 (msg names every differing move) otherwise. */
int app_game_check(const app_game_result *got, const app_game_result *want, char *msg, size_t msg_len);

#endif
