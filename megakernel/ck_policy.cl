/* Scheduling policy: the decisions of the scheduler and of the idle
 * workers, as pure functions of the counts that the mechanism read. None of
 * them touches memory, so the same file compiles as OpenCL C into the
 * megakernel and as C11 into the host's unit tests
 * (tests/megakernel/test_policy.c), which pin every decision.
 *
 * The mechanism (ck_scheduler.cl, ck_find_work.cl) decides when and in what
 * order the counts are read (that order is part of what makes a count
 * trustworthy) and carries out the decision; the functions here say what is
 * decided from them:
 * - which cooperative launch starts and with how many groups
 *   (ck_policy_coop_start), and how many groups an ordinary launch gets at
 *   once (ck_policy_wave);
 * - how many groups the running cooperative kernel is asked to give back
 *   (ck_policy_demand, ck_policy_kills_wanted);
 * - when the megakernel may stop (ck_policy_may_stop);
 * - the idle workers' looking: which look without pause
 *   (ck_policy_hot_clusters, ck_policy_all_look), how they back off after a
 *   lost race (ck_policy_backoff) and where a task scan starts
 *   (ck_policy_task_spread), and how long the others pause between looks
 *   (CK_IDLE_PAUSE_NS). The order in which an idle worker takes work is
 *   ck_find_work's control flow: a promised fork ticket first (a fork
 *   needs every worker it promised), then a group of the oldest published
 *   ordinary launch, then a group of the oldest visible task. */

/* A signed view of the difference of two wrapping counters. */
int ck_policy_ahead(uint a, uint b) { return (int)(a - b); }

/* Groups an ordinary launch gets at once (its first wave): what it asks
 * for, up to one per worker. STARTED is sent once that many are taken. */
uint ck_policy_wave(uint groups, uint workers) { return min(groups, workers); }

/* The first wave of an ordinary launch with `left` groups not yet taken
 * has been taken. */
uint ck_policy_wave_taken(uint groups, uint left, uint workers)
{
    return groups - left >= ck_policy_wave(groups, workers);
}

/* Passes the first cooperative launch waits for every worker to count
 * itself idle, so that it gets them all; the passes go on meanwhile, and a
 * worker that starts late does not hold the launch for longer. */
#define CK_FIRST_START_PASSES (1u << 22)

/* The groups a waiting cooperative launch of `groups` groups starts with
 * now, or 0 to wait: one cooperative launch runs at a time and it needs an
 * idle worker; the first one (`coop_started` 0) also waits, for at most
 * CK_FIRST_START_PASSES passes, until every worker is idle. It gets every
 * idle worker it asks for (chaos may start it smaller:
 * ck_cx_start_groups). */
uint ck_policy_coop_start(uint groups, uint idle, uint workers, uint coop_running, uint coop_started, uint pass)
{
    if (coop_running || idle == 0u)
        return 0u;
    if (!coop_started && idle < workers && pass < CK_FIRST_START_PASSES)
        return 0u;
    return min(groups, idle);
}

/* Task groups published and not yet claimed: the published count less the
 * taken count, both read while they move, so a difference below zero
 * counts as none. */
uint ck_policy_task_demand(uint task_groups, uint task_taken)
{
    return ck_policy_ahead(task_groups, task_taken) > 0 ? task_groups - task_taken : 0u;
}

/* Groups wanted: the ordinary launches' groups not yet taken plus the task
 * groups not yet claimed, up to the number of workers (more cannot run at
 * once). */
uint ck_policy_demand(uint launch_left, uint task_demand, uint workers)
{
    return min(launch_left + task_demand, workers);
}

/* Kills to ask of the cooperative kernel: the groups wanted that neither
 * an idle worker nor a killed group on its way back will serve. `coming`
 * is the kills taken less the killed groups whose workers are back. */
uint ck_policy_kills_wanted(uint demand, uint idle, uint coming)
{
    uint supply = idle + coming;
    return demand > supply ? demand - supply : 0u;
}

/* The megakernel may stop after a shutdown message: no launch slot is in
 * use and every task the host posted before it is visible and finished.
 * A build without tasks passes 0 for the three task counts. */
uint ck_policy_may_stop(uint active, uint posted, uint visible, uint finished)
{
    return active == 0u && ck_policy_ahead(posted, visible) <= 0 && finished == visible;
}

/* Hot clusters: the workers split by index into this many clusters, each
 * with one token; the idle worker holding its cluster's token looks for
 * work without pause, the others pause between looks (CK_HOT_CLUSTERS). */
uint ck_policy_hot_clusters(uint max_workers) { return CK_HOT_CLUSTERS(max_workers); }

/* Every idle worker looks for launch groups and tasks, not only the hot
 * ones: more groups are wanted than there are clusters. (The hot worker
 * always looks; ck_find_work reads the demand only for the others, which
 * keeps a load off the hot worker's path: with the demand read first and
 * then tested beside `hot`, an empty task's round trip on an H200 took
 * 4.31-4.34 us against 3.89-3.93, docs/RESULTS.md.) */
uint ck_policy_all_look(uint demand, uint clusters) { return demand > clusters; }

/* Reads an idle worker waits after it lost the race for a group: doubling
 * from 1 up to 255, so that a burst is not served through one word that
 * every idle worker hammers; the task poller does not wait (it goes on
 * polling). */
uint ck_policy_backoff(uint backoff, uint poller) { return poller ? 0u : min(2u * backoff + 1u, 255u); }

/* Where worker `w`'s task scan starts (ck_claim_task's spread): among the
 * newest tickets, at an offset that changes with each attempt; 0 (from the
 * oldest ticket with groups left) for the poller and after four lost races
 * in a row (back-off 15 and more), so that older tickets' groups are not
 * left behind. */
uint ck_policy_task_spread(uint w, uint backoff, uint poller) { return poller || (backoff & 8u) ? 0u : w + backoff; }

/* An idle worker that is not hot pauses this long between looks: a fork's
 * promised workers and a free cluster token are noticed at most this much
 * later. Without tasks the workers are more (fewer registers) and their
 * looks slow the launch path, so they pause longer (a 1-group launch:
 * 11.9-12.4 us at 200 ns, 10.0-10.3 us at 2000 ns on the H100); with tasks
 * a burst wants its resting workers soon (2000 ns cost 5-8 % of its empty
 * tasks per second). docs/RESULTS.md has both. */
#define CK_IDLE_PAUSE_NS (CK_TASKS_BUILD ? 200u : 2000u)
