/* Par of double-dummy tables, in bulk: DDS 2.9's DealerPar and Par, computed without DDS.

   The answers are DDS's, decision for decision, including its tie-breaks and its
   quirks on tables no deal has (the tests compare every field against DDS itself).
   Two algorithms, as DDS has them:

   * dealer par (DDS's DealerPar, after Soren Hein): the side entitled to a plus score
     (the higher making contract, or who can bid it first), its candidate contracts from
     the dearest making one up, for each the opponents' cheapest doubled sacrifice; the
     side bids when its best non-sacrificed score beats the best sacrifice, lowered as far
     as no sacrifice becomes worth it and no bonus is lost.
   * both sides' par (DDS's Par/SidesParBin, after Matthew Kidd's ACBLmerge): for each side
     bidding first, both sides raise in turn until neither improves; then each strain that
     reaches the same score is listed, makes lowered while the score holds, and contracts
     that the other side's view outranks are dropped.

   Strain orders: DDS's tables are S H D C NT; dealer par walks C D H S NT ("dno"), both
   sides' par NT S H D C ("j"). */

#include <stdint.h>
#include <stddef.h>

#define PAR_SLOTS 10
#define PAR_FIELDS 8
#define NONE_FOUND 9999

/* Vulnerability (DDS: 0 none, 1 both, 2 NS, 3 EW) of side 0 NS / 1 EW. */
static int side_vul(int vulnerable, int side) {
    return vulnerable == 1 || (side == 0 && vulnerable == 2) || (side == 1 && vulnerable == 3);
}

static const int DNO_STRAIN[5] = {3, 2, 1, 0, 4}; /* dno C D H S NT -> DDS strain */
static const int J_STRAIN[5] = {4, 0, 1, 2, 3};   /* j NT S H D C -> DDS strain */

/* Tricks for 1 over, the per-trick value, and the game level of a DDS strain. */
static int game_level(int strain) { return strain == 4 ? 3 : (strain <= 1 ? 4 : 5); }

/* Score of a contract (DDS strain) making exactly ``level``, undoubled. */
static int made_exactly(int level, int strain, int vul) {
    int points = (strain <= 1 || strain == 4 ? 30 : 20) * level + (strain == 4 ? 10 : 0);
    int score = points + (level >= game_level(strain) ? (vul ? 500 : 300) : 50);
    if (level == 6) score += vul ? 750 : 500;
    if (level == 7) score += vul ? 1500 : 1000;
    return score;
}

/* Undertricks doubled, as a plus for the defenders (``down`` may be 0: nothing). */
static int doubled_down(int down, int vul) {
    if (down <= 0) return 0;
    if (vul) return 300 * down - 100;
    return down <= 3 ? 200 * down - 100 : 300 * down - 400;
}

/* DDS's ``rawscore(-1, ut, vul)`` for any ``ut`` (its formula, also where ut <= 0). */
static int sacrifice_raw(int ut, int vul) {
    if (vul) return -300 * ut + 100;
    return ut <= 3 ? -200 * ut + 100 : -300 * ut + 400;
}

static int tricks_at(const int8_t *t, int strain, int seat) { return t[4 * strain + seat]; }

/* Seats code of ``side``'s players taking ``tmax`` tricks in ``strain``: 0..3 one, 4 NS, 5 EW. */
static int seats_code(const int8_t *t, int side, int strain) {
    int a = tricks_at(t, strain, side), b = tricks_at(t, strain, side + 2);
    if (a == b) return 4 + side;
    return a > b ? side : side + 2;
}

static void put(int8_t *c, int level, int strain, int seats, int result, int starred) {
    c[0] = (int8_t)level;
    c[1] = (int8_t)strain;
    c[2] = (int8_t)seats;
    c[3] = (int8_t)result;
    c[4] = (int8_t)starred;
    c[5] = c[6] = c[7] = 0;
}

static void against(int8_t *c, int level, int strain, int seats) {
    c[5] = (int8_t)level;
    c[6] = (int8_t)strain;
    c[7] = (int8_t)seats;
}

/* ---- dealer par ------------------------------------------------------------------------ */

typedef struct {
    int score; /* made exactly, undoubled; 0 when the side makes nothing in the strain */
    int dno;
    int no; /* contract number 1C=1 .. 7NT=35 of the side's most tricks; may be <= 0 */
    int tricks;
    int down;
} candidate;

/* Highest contract in this strain that keeps the bonus of ``no``: part scores 1-level, games their game. */
static int floor_no(int no) {
    int level = (no - 1) / 5 + 1, dno = (no - 1) % 5, g = game_level(DNO_STRAIN[dno]);
    if (level >= 6) return no;
    return (level >= g ? 5 * (g - 1) : 0) + dno + 1;
}

/* Scores by contract number (1C=1 .. 7NT=35), computed once a batch. */
typedef struct {
    int made[36][2];      /* made exactly, [vulnerable] */
    int target[36][2][2]; /* most undertricks doubled that cost the defenders less: [declarer vul][defender vul] */
} score_tables;

static void fill_scores(score_tables *s) {
    for (int no = 1; no <= 35; no++)
        for (int vd = 0; vd < 2; vd++) {
            s->made[no][vd] = made_exactly((no - 1) / 5 + 1, DNO_STRAIN[(no - 1) % 5], vd);
            for (int vf = 0; vf < 2; vf++) {
                int d = 0;
                while (doubled_down(d + 1, vf) < s->made[no][vd]) d++;
                s->target[no][vd][vf] = d;
            }
        }
}

/* Opponents' cheapest sacrifice (undertricks) against ``no`` in each strain, into ``sacr``; the minimum. */
static int cheapest_sacrifice(const int8_t *t, int side, int no, int dno, int dealer,
                              const candidate other[5], int sacr[5]) {
    int best = NONE_FOUND;
    for (int eno = 0; eno < 5; eno++) {
        int down = NONE_FOUND;
        if (eno == dno) {
            /* Same strain: a player of the side may bid it first, forcing a level higher. */
            int need = (no + 34) / 5, later = 0;
            for (int p = dealer; p < dealer + 4; p++) {
                int diff = need - tricks_at(t, DNO_STRAIN[dno], p % 4);
                if (p % 2 == side) {
                    if (diff == 0) later = 1;
                } else if (diff + later < down) {
                    down = diff + later;
                }
            }
        } else {
            down = (no - other[eno].no + 4) / 5; /* C's division, toward zero, as DDS's */
        }
        if (other[eno].no + 5 * down > 35) down = NONE_FOUND;
        sacr[eno] = down;
        if (down < best) best = down;
    }
    return best;
}

static int dealer_par_one(const score_tables *st, const int8_t *t, int dealer, int vulnerable, int8_t *out,
                          int *number, int *sacrifice) {
    candidate list[2][5];
    int highest[2] = {0, 0}, dearest_no[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        int dearest = 0, vul = side_vul(vulnerable, side);
        for (int dno = 0; dno < 5; dno++) {
            int strain = DNO_STRAIN[dno], a = tricks_at(t, strain, side), b = tricks_at(t, strain, side + 2);
            int best = a > b ? a : b, no = 5 * (best - 7) + dno + 1;
            candidate *c = &list[side][dno];
            c->no = no;
            c->dno = dno;
            c->tricks = best;
            c->down = 0;
            c->score = best < 7 ? 0 : st->made[no][vul];
            if (best < 7) continue;
            if (c->score > dearest || (c->score == dearest && no < dearest_no[side])) {
                dearest = c->score;
                dearest_no[side] = no;
            }
            if (no > highest[side]) highest[side] = no;
        }
    }
    int side;
    if (highest[0] != highest[1]) {
        side = highest[0] > highest[1] ? 0 : 1;
    } else if (highest[0] == 0) {
        *number = 0; /* passed out */
        *sacrifice = 0;
        return 0;
    } else {
        /* Both sides' top contract is the same: whoever can bid it first. */
        int dno = (highest[0] - 1) % 5, top = list[0][dno].tricks;
        side = 0;
        for (int p = dealer; p < dealer + 4; p++) {
            if (tricks_at(t, DNO_STRAIN[dno], p % 4) == top) {
                side = p % 2;
                break;
            }
        }
    }
    int other = 1 - side, vul_decl = side_vul(vulnerable, side), vul_def = side_vul(vulnerable, other);
    candidate cands[5];
    int m = 0;
    for (int dno = 0; dno < 5; dno++) /* highest contract first */
        if (list[side][dno].no >= dearest_no[side]) cands[m++] = list[side][dno];
    for (int a = 1; a < m; a++)
        for (int b = a; b > 0 && cands[b].no > cands[b - 1].no; b--) {
            candidate x = cands[b];
            cands[b] = cands[b - 1];
            cands[b - 1] = x;
        }

    int sacr[5][5], kind[5], gap[5], best_plus = 0, best_down = 0, sac_found = 0;
    for (int n = 0; n < m; n++) {
        int no = cands[n].no, target = st->target[no][vul_decl][vul_def];
        int down = cheapest_sacrifice(t, side, no, cands[n].dno, dealer, list[other], sacr[n]);
        if (down <= target) {
            if (down > best_down) best_down = down;
            kind[n] = sac_found ? -1 : 0; /* only the highest sacrificed contract is listed */
            if (!sac_found) cands[n].down = down;
            sac_found = 1;
        } else {
            if (cands[n].score > best_plus) best_plus = cands[n].score;
            kind[n] = 1;
            gap[n] = target - down;
        }
    }

    int k = 0, penalty = doubled_down(best_down, vul_def);
    if (!sac_found || best_plus > penalty) {
        for (int n = 0; n < m && k < PAR_SLOTS; n++) {
            if (kind[n] != 1 || cands[n].score != best_plus) continue;
            int no = cands[n].no, plus = 0;
            if (gap[n] < -1) { /* bid lower while no sacrifice pays and no bonus is lost */
                int low = no + 5 * (gap[n] + 1), flr = floor_no(no);
                int new_no = low > flr ? low : flr;
                plus = (no - new_no) / 5;
                no = new_no;
            }
            int strain = DNO_STRAIN[cands[n].dno];
            if (out) put(out + PAR_FIELDS * k, (no - 1) / 5 + 1, strain, seats_code(t, side, strain), plus, 0);
            k++;
        }
        *number = k;
        *sacrifice = 0;
        return side == 0 ? best_plus : -best_plus;
    }
    for (int n = 0; n < m; n++) {
        if (kind[n] != 0 || cands[n].down != best_down) continue;
        int no_decl = cands[n].no, dno = cands[n].dno, strain = DNO_STRAIN[dno];
        int a_level = (no_decl - 1) / 5 + 1, a_seats = seats_code(t, side, strain);
        for (int eno = 0; eno < 5 && k < PAR_SLOTS; eno++) {
            if (sacr[n][eno] != best_down) continue;
            int8_t *c = out ? out + PAR_FIELDS * k : NULL;
            if (eno != dno) {
                int no_sac = list[other][eno].no + 5 * best_down, es = DNO_STRAIN[eno];
                if (c) put(c, (no_sac - 1) / 5 + 1, es, seats_code(t, other, es), -best_down, 1);
            } else {
                /* The same strain: which opponent, at which level (one higher when outbid first). */
                int need = (no_decl + 34) / 5, later = 0, hits = 0, who[2] = {0, 0}, at[2] = {0, 0};
                for (int p = dealer; p < dealer + 4; p++) {
                    int diff = need - tricks_at(t, strain, p % 4);
                    if (p % 2 == side) {
                        if (diff == 0) later = 1;
                    } else if (diff + later == best_down && hits < 2) {
                        who[hits] = p % 4;
                        at[hits] = no_decl + 5 * later;
                        hits++;
                    }
                }
                if (hits == 2 && at[0] == at[1]) {
                    if (c) put(c, (at[0] - 1) / 5 + 1, strain, seats_code(t, other, strain), -best_down, 1);
                } else {
                    int q = (hits == 2 && at[1] < at[0]) ? 1 : 0;
                    if (c) put(c, (at[q] - 1) / 5 + 1, strain, who[q], -best_down, 0);
                }
            }
            if (c) against(c, a_level, strain, a_seats);
            k++;
        }
    }
    *number = k;
    *sacrifice = k > 0 && best_down > 0;
    return side == 0 ? penalty : -penalty;
}

int ddsbind_dealer_par(const int8_t *tables, int64_t n, const int8_t *dealer, const int8_t *vulnerable,
                       int32_t *score, int8_t *number, int8_t *contracts, int8_t *sacrifice) {
    score_tables st;
    fill_scores(&st);
    for (int64_t i = 0; i < n; i++) {
        int8_t *out = contracts ? contracts + i * PAR_SLOTS * PAR_FIELDS : NULL;
        int k = 0, sac = 0;
        score[i] = dealer_par_one(&st, tables + 20 * i, dealer[i], vulnerable[i], out, &k, &sac);
        if (number) number[i] = (int8_t)k;
        if (sacrifice) sacrifice[i] = (int8_t)sac;
    }
    return 0;
}

/* ---- both sides' par ------------------------------------------------------------------------ */

/* DDS's rawscore for a make: ``tricks`` (7..13) in ``j`` (NT S H D C order), undoubled. */
static int make_raw(int j, int tricks, int vul) { return made_exactly(tricks - 6, J_STRAIN[j], vul); }

static int j_tricks(const int8_t *t, int j, int seat) { return tricks_at(t, J_STRAIN[j], seat); }

/* Undertricks doubled against the side that ``ns_makes`` says makes par (DDS's VulnerDefSide). */
static int defenders_vul(int ns_makes, int vulnerable) {
    if (vulnerable == 0) return 0;
    if (vulnerable == 1) return 1;
    return ns_makes ? vulnerable != 2 : vulnerable != 3;
}

/* Largest level a par make may drop to an overtrick without losing a bonus (NT S H D C order). */
static int lowering_room(int j, int level) {
    int g = game_level(J_STRAIN[j]);
    if (level < g) return level - 1;
    return level <= 5 ? level - g : 0;
}

typedef struct {
    int level, j, seats, over, under;
} sides_contract;

typedef struct {
    int score, number;
    sides_contract c[5];
} sides_result;

static void sides_par_one(const int8_t *t, int vulnerable, sides_result res[2]) {
    int best_score[2] = {0, 0}, best_sacut[2] = {0, 0}, count[2] = {0, 0};
    int best_j[2][5], best_tricks[2][5];
    for (int i = 0; i < 2; i++) {
        int filtered[5] = {0, 0, 0, 0, 0}, no_filtered = 0;
        int par_j = -1, par_tricks = 6, par_score = 0, par_sacut = 0;
        int current = 0, both_once = 0;
        for (;;) {
            int k = (i + current) % 2, vul = side_vul(vulnerable, k);
            int improved = 0, prev_j = par_j, prev_tricks = par_tricks;
            int order[5], tr[5], key[5], n = 0;
            for (int j = 0; j < 5; j++) {
                if (filtered[j]) continue;
                int a = j_tricks(t, j, k), b = j_tricks(t, j, k + 2), tt = a > b ? a : b;
                int higher = tt > par_tricks || (tt == par_tricks && j < par_j);
                order[n] = j;
                tr[n] = tt;
                key[n] = higher ? make_raw(j, tt, vul) : sacrifice_raw(prev_tricks - tt, vul);
                n++;
            }
            for (int a = 1; a < n; a++) /* by score, highest first; equal scores keep their order */
                for (int b = a; b > 0 && key[b] > key[b - 1]; b--) {
                    int x = order[b], y = tr[b], z = key[b];
                    order[b] = order[b - 1], tr[b] = tr[b - 1], key[b] = key[b - 1];
                    order[b - 1] = x, tr[b - 1] = y, key[b - 1] = z;
                }
            for (int q = 0; q < n; q++) {
                int j = order[q], tt = tr[q], ut = 0, score;
                if (tt > par_tricks || (tt == par_tricks && j < par_j)) {
                    score = make_raw(j, tt, vul);
                } else {
                    ut = prev_tricks - tt;
                    if (j >= prev_j) {
                        if (prev_tricks == 13) continue; /* nothing above 7NT */
                        ut++;
                    }
                    if (ut <= 0) continue;
                    score = sacrifice_raw(ut, vul);
                }
                if (current == 1) score = -score;
                if ((current == 0 && score > par_score) || (current == 1 && score < par_score)) {
                    improved = 1;
                    par_score = score;
                    par_j = j;
                    if ((current == 0 && score > 0) || (current == 1 && score < 0)) {
                        par_tricks = tt;
                        par_sacut = 0;
                    } else {
                        par_tricks = tt + ut;
                        par_sacut = ut;
                    }
                }
            }
            if (improved || !both_once) {
                both_once = 1;
                current = 1 - current;
                continue;
            }
            if (no_filtered == 0) {
                best_score[i] = par_score;
                if (par_score == 0) break;
                best_sacut[i] = par_sacut;
                count[i] = 0;
            } else if (best_score[i] != par_score) {
                break;
            }
            if (no_filtered >= 5) break;
            /* Another strain reaching the same score? Search again without this one. */
            filtered[par_j] = 1;
            no_filtered++;
            best_j[i][count[i]] = par_j;
            best_tricks[i][count[i]] = par_tricks;
            count[i]++;
            both_once = 0;
            current = 0;
            par_j = -1;
            par_tricks = 6;
            par_score = 0;
            par_sacut = 0;
        }
    }

    res[0].score = best_score[0];
    res[1].score = best_score[1];
    if (best_score[0] == 0) {
        res[0].number = res[1].number = 0;
        return;
    }
    for (int i = 0; i < 2; i++) {
        res[i].number = count[i];
        if (best_sacut[i] > 0) {
            int dr = best_score[i] > 0 ? 0 : 1, ns = (dr + i) % 2;
            for (int a = 1; a < count[i]; a++) /* by strain, NT first */
                for (int b = a; b > 0 && best_j[i][b] < best_j[i][b - 1]; b--) {
                    int x = best_j[i][b], y = best_tricks[i][b];
                    best_j[i][b] = best_j[i][b - 1], best_tricks[i][b] = best_tricks[i][b - 1];
                    best_j[i][b - 1] = x, best_tricks[i][b - 1] = y;
                }
            for (int q = 0; q < count[i]; q++) {
                sides_contract *c = &res[i].c[q];
                c->j = best_j[i][q];
                c->seats = seats_code(t, ns ? 0 : 1, J_STRAIN[c->j]);
                c->level = best_tricks[i][q] - 6;
                c->over = 0;
                c->under = best_sacut[i];
            }
            continue;
        }
        int dr = best_score[i] < 0 ? 0 : 1, decl = (dr + i) % 2 ? 0 : 1, def = 1 - decl;
        int most = 0, most_j = 0, opp[5];
        for (int j = 0; j < 5; j++) {
            int a = j_tricks(t, j, def), b = j_tricks(t, j, def + 2);
            opp[j] = a > b ? a : b;
            if (opp[j] > most) {
                most = opp[j];
                most_j = j;
            }
        }
        int dvul = defenders_vul(best_score[0] > 0, vulnerable);
        int gain = best_score[i] >= 0 ? best_score[i] : -best_score[i];
        for (int q = 0; q < count[i]; q++) {
            int j = best_j[i][q], ptr = best_tricks[i][q], above = most_j < j;
            int lower = ptr - most - above;
            /* Lower while the opponents' sacrifice over the lowered contract still costs them more. */
            while (lower > 0 && gain >= -sacrifice_raw(ptr - lower - most + !above, dvul)) lower--;
            while (lower > 0 && best_score[i] < 0 && gain > -sacrifice_raw(ptr - lower - opp[j], dvul)) lower--;
            int room = lowering_room(j, ptr - 6);
            if (room < lower) lower = room;
            sides_contract *c = &res[i].c[q];
            c->j = j;
            c->seats = seats_code(t, decl, J_STRAIN[j]);
            c->under = 0;
            c->over = lower > 0 ? lower : 0;
            c->level = ptr - 6 - c->over;
        }
    }
    /* Drop contracts the other side's view outbids (the views differ only when it matters who starts). */
    int dom_level[2] = {-1, -1}, dom_j[2] = {-1, -1};
    for (int i = 0; i < 2; i++) {
        int o = 1 - i;
        for (int q = 0; q < res[o].number; q++) {
            sides_contract *c = &res[o].c[q];
            int ss = c->level + c->over;
            if ((ss > dom_level[o] || (ss == dom_level[o] && c->j < dom_j[o])) && (c->seats % 2) == (i == 0)) {
                dom_j[o] = c->j;
                dom_level[o] = ss;
            }
        }
    }
    if (dom_j[0] == -1 || dom_j[1] == -1) return;
    for (int i = 0; i < 2; i++) {
        int o = 1 - i, removed[5] = {0, 0, 0, 0, 0}, kept = 0;
        for (int q = 0; q < res[i].number; q++) {
            sides_contract *c = &res[i].c[q];
            int ss = c->level + c->over;
            if (ss < dom_level[o] || (ss == dom_level[o] && dom_j[o] < c->j)) removed[c->j] = 1;
        }
        for (int q = 0; q < res[i].number; q++)
            if (!removed[res[i].c[q].j]) res[i].c[kept++] = res[i].c[q];
        res[i].number = kept;
    }
}

/* What a sacrifice by ``side`` at (level, strain) saves against: the opponents' best-scoring
   making contract that it outbids (highest level below it in each strain), into ``c``. */
static void saved_against(const int8_t *t, int side, int level, int strain, int vulnerable, int8_t *c) {
    int o = 1 - side, vul = side_vul(vulnerable, o), best = -1;
    int rank = 5 * level + (4 - (strain == 4 ? -1 : strain)); /* higher rank bids higher */
    for (int s = 0; s < 5; s++) {
        int a = tricks_at(t, s, o), b = tricks_at(t, s, o + 2), tt = a > b ? a : b;
        int r = 4 - (s == 4 ? -1 : s), top = tt - 6;
        while (top >= 1 && 5 * top + r >= rank) top--;
        if (top < 1) continue;
        int score = made_exactly(top, s, vul) + (tt - 6 - top) * (s <= 1 || s == 4 ? 30 : 20);
        if (score > best) {
            best = score;
            against(c, top, s, seats_code(t, o, s));
        }
    }
}

int ddsbind_sides_par(const int8_t *tables, int64_t n, const int8_t *vulnerable,
                      int32_t *score, int8_t *number, int8_t *contracts) {
    for (int64_t i = 0; i < n; i++) {
        const int8_t *t = tables + 20 * i;
        sides_result res[2];
        sides_par_one(t, vulnerable[i], res);
        for (int s = 0; s < 2; s++) {
            score[2 * i + s] = res[s].score;
            if (number) number[2 * i + s] = (int8_t)res[s].number;
            if (!contracts) continue;
            for (int q = 0; q < res[s].number && q < PAR_SLOTS; q++) {
                sides_contract *c = &res[s].c[q];
                int8_t *out = contracts + ((2 * i + s) * PAR_SLOTS + q) * PAR_FIELDS;
                int strain = J_STRAIN[c->j], starred = c->under > 0;
                put(out, c->level, strain, c->seats, starred ? -c->under : c->over, starred);
                if (starred) saved_against(t, c->seats == 4 || c->seats % 2 == 0 ? 0 : 1, c->level, strain,
                                           vulnerable[i], out);
            }
        }
    }
    return 0;
}
