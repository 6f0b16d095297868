"""A Klondike solver, the Hint button and "winnable deals only" (pure Python, standard library).

``solve(state, seconds)`` searches a position with full knowledge of every card (face-down
cards and the stock order included) and answers:

- ``"won"`` with ``line``: contract actions that apply legally from ``state`` and win;
- ``"lost"``: the whole search space was exhausted, no line wins (a proof: every pruning rule
  below only drops moves that can never be needed);
- ``"unknown"``: the budget (CPU seconds of the searching thread, or positions) ran out first.

How it searches (best-first, then depth-first restarts; every position visited once):

- **The talon as a list ("K+").** Stock and waste together form one list, the waste being its
  first ``pos`` cards. Draws and recycles are never searched on their own: a "talon move" plays
  any card that drawing/recycling can bring to the top of the waste, and the line gets the
  draws it needs. In Draw 1 every talon card is reachable and the order of the talon does not
  matter at all; in Draw 3 the reachable cards are the tops of the groups of three, from the
  current position and from the start of the next pass.
- **Safe moves to the foundations are made at once.** A card of rank r goes up automatically
  when r <= 2 or both foundations of the other colour hold r - 1 or more: no card can then
  ever need it as a landing spot. Draw 3 only does it from the columns (taking a card out of
  the talon shifts the groups of three, so it is not always harmless there).
- **Transposition table.** A position is keyed by its columns, sorted (the columns are
  interchangeable), plus the talon (Draw 1: as a set; Draw 3: in order, with ``pos``). The
  foundations follow from the rest.
  In Draw 3 the waste sizes 0, 3, 6, ... and "the whole talon" are one position (draws and a
  recycle lead from each to the others).
- **Pointless moves are not generated:** a King that already heads a column moving to an empty
  column, a move into a second empty column when one is enough (they are the same), a safe
  card coming back down from its foundation, an Ace put on a column.
- **Moves that only rearrange cards wait for a use** (see ``Search.moves``): moving part of a
  group onto a twin, emptying a column, taking a card back from a foundation, sending an
  unsafe card up without turning a card over, and (Draw 1) putting a talon card on a column
  are generated only when the next move could use them. Any winning line can be reordered so
  that each such move comes right before its use, so no win is lost.
- **Dead ends are cut by a relaxed game** (``Search.dead``): if some card could never come
  free even when timing and room are ignored, the position is lost and not searched further.
  The relaxed game knows that a card can only be built on in a column: a card on a foundation
  or in the talon is a landing spot only once it can come onto a column itself, and a card
  deep in a foundation only once the cards above it there can come down.
- **Best-first first** (``Search.best_first``): half the budget goes to expanding the position
  with the fewest face-down cards (then the most cards home) first. A depth-first search that
  goes wrong early spends its whole budget below that mistake; this one leaves a part that
  stops looking good.
- **Move order** (of the depth-first searches): turn a face-down card over (the column with
  most face-down cards first) or play to a foundation first, then talon cards to the columns,
  then emptying a column, moving part of a group between twin cards, and taking a card back
  from a foundation.
- **Restarts:** short depth-first searches with a shuffled move order (seeded, so repeatable)
  and growing node limits use the rest of the budget, since a deal one order gets lost in is
  often quick in another. Every search is complete, so any of them may also prove a loss.
- Once every column card is face up, Draw 1 is won (the lowest card still needed is always
  free); Draw 3 is won if a plain "lowest card first" finish works, and searched on otherwise.

**Hidden information (the Hint button).** A hint must not depend on cards the player cannot
see: a solver that knows the face-down cards would pick moves because of them (for instance
"dig in column 6", because the card under it is the one needed), and repeated hints would leak
the layout. So ``hint()`` never solves the real position while cards are hidden. It builds the
positions the player cannot tell apart from the real one: the same face-up cards and the same
stock cards already seen (in the order seen), with the unseen cards - those face down in the
columns and the never-turned part of the stock - dealt at random into the unseen places, with
a random generator seeded only from what the player can see. It solves several of them and
suggests the first move that wins most of them ("source": "solver", with how many). When
nothing is hidden any more (every card face up and the stock seen through), the real position
is solved exactly. If no sample is solved, the bot's rules of thumb pick the move
("source": "heuristic"). Full knowledge is used only where it reveals nothing the player may
not know: ``winnable_seed`` (at deal time, the player asked for a winnable deal: it says "this
deal can be won" and nothing else), the benchmark and the tests.
"""

from __future__ import annotations

import copy
import hashlib
import heapq
import json
import random
import time
from collections import Counter
from typing import Any

from ...text import say
from . import board

SUITS = "SHDC"
RANK_NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# Cards are ints: suit index * 13 + rank index (A = 0 ... K = 12).
NAME = [RANK_NAMES[c % 13] + SUITS[c // 13] for c in range(52)]
CODE = {name: c for c, name in enumerate(NAME)}
RANK = [c % 13 for c in range(52)]
SUIT = [c // 13 for c in range(52)]
RED = [SUIT[c] in (1, 2) for c in range(52)]
# The two cards a card may be put on in a column (one rank higher, the other colour).
PARENTS = [
    tuple(s * 13 + RANK[c] + 1 for s in range(4) if RED[s * 13] != RED[c]) if RANK[c] < 12 else ()
    for c in range(52)
]
# The two cards that may be put on a card in a column, and a card's twin (same rank and colour).
CHILDREN = [
    tuple(s * 13 + RANK[c] - 1 for s in range(4) if RED[s * 13] != RED[c]) if RANK[c] else ()
    for c in range(52)
]
TWIN = [(3 - SUIT[c]) * 13 + RANK[c] for c in range(52)]
OTHER_COLOUR = [(1, 2), (0, 3), (0, 3), (1, 2)]  # by suit index (S, H, D, C)
FOUNDATION = 7  # destinations: 0-6 the columns, 7 + suit index the foundations
KING = 12
DOWN_WEIGHT = 3  # in Search.score: a face-down card counts as much as three cards not home

# Key separators: never a card value (0-51).
_COL_SEP = bytes((200,))
_UP_SEP = bytes((201,))
_TALON_SEP = bytes((202,))

_REACH: dict[tuple[int, int, int], tuple[int, ...]] = {}


def reach(length: int, pos: int, draw: int) -> tuple[int, ...]:
    """Talon indices that drawing and recycling can bring to the top of the waste."""
    key = (length, pos, draw)
    found = _REACH.get(key)
    if found is None:
        found = _REACH[key] = tuple(board.talon_reach(length, pos, draw))
    return found


def safe(c: int, found: tuple[int, ...] | list[int]) -> bool:
    """No card can ever need ``c`` as a landing spot (see the module docstring)."""
    r = RANK[c]
    if r <= 1:
        return True
    if RED[c]:
        return found[0] >= r and found[3] >= r
    return found[1] >= r and found[2] >= r


# ---- positions ---------------------------------------------------------------------------------

# A position: (cols, found, talon, pos). cols: 7 (down, up) pairs of bytes, bottom -> top;
# found: cards on each foundation (S, H, D, C); talon: bytes, waste bottom -> top then stock
# top -> bottom; pos: how many talon cards are on the waste.


def position(state: dict) -> tuple:
    cols = tuple(
        (
            bytes(CODE[c] for c in state["columns"][name]["down"]),
            bytes(CODE[c] for c in state["columns"][name]["up"]),
        )
        for name in board.COLUMNS
    )
    found = tuple(len(state["foundations"]["f" + s]) for s in SUITS)
    talon = bytes(CODE[c] for c in state["waste"] + state["stock"])
    return cols, found, talon, len(state["waste"])


class Search:
    def __init__(self, draw: int, deadline: float, max_nodes: int | None, use_dead: bool = True):
        self.draw = draw
        self.use_dead = use_dead
        self.rng: random.Random | None = None
        self.spread = 0
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        # Draw 3: dead-end answers by columns and talon (the waste size does not matter).
        self.dead_memo: dict[bytes, bool] = {}

    # -- the key

    def key(self, node: tuple) -> bytes:
        cols, _, talon, pos = node
        ck = _COL_SEP.join(sorted([down + _UP_SEP + up for down, up in cols]))
        if self.draw == 1:
            return ck + _TALON_SEP + bytes(sorted(talon))
        # Draw 3: the waste sizes 0, 3, 6, ... and "all of the talon" follow each other in a
        # cycle of draws and a recycle, so those positions are one and the same.
        if pos % 3 == 0 or pos == len(talon):
            pos = 255
        return ck + _TALON_SEP + bytes((pos,)) + talon

    # -- moves

    def moves(self, node: tuple) -> list[tuple]:
        """Every move worth trying, best first: (priority, source, a, b[, c]).

        A move that only rearranges cards is generated only when the move right after it
        could use what it makes possible. Any winning line can be reordered that way: a move
        commutes with the moves that touch neither the cards it moves, nor the card it
        uncovers, nor the pile it lands on, so it can wait until just before the first move
        that does (and when that move just moves the same cards on, the two merge). So:

        - part of a group moved from a card ``e`` onto ``e``'s twin (same rank and colour):
          only if ``e`` can then go to its foundation, or the twin of the group's bottom card
          can come onto ``e``;
        - a whole group moved off a column with no face-down card: only if a King can come
          into the empty column;
        - a card put on a column from a foundation (or, in Draw 1, from the talon, whose order
          does not matter there): only if a card can come onto it, or (from a foundation) the
          card under it on the foundation could then come down too and be used;
        - an unsafe card sent to a foundation without turning a card over (Draw 1 talon cards
          included): only if the next card of its suit can follow at once, the card it
          uncovers can go up or take the twin of the card sent up, or its column empties
          for a King.

        "Can come onto a card" means: from the talon, from a foundation, heading a column's
        face-up group, or from inside a group when that part of the group may move itself
        (by the rule above for twins).
        """
        cols, found, talon, pos = node
        draw = self.draw
        out = []
        top_at = {}
        empty = -1
        under = {}  # face-up card -> the face-up card it lies on
        king_free = False  # a King that could use an empty column
        top_of = {}  # card heading a column's face-up group -> column
        for k, (down, up) in enumerate(cols):
            if up:
                top_at[up[-1]] = k
                top_of[up[0]] = k
                under.update(zip(up[1:], up[:-1], strict=True))
                if down and RANK[up[0]] == KING:
                    king_free = True
            elif empty < 0:
                empty = k
        reachable = reach(len(talon), pos, draw)
        talon_free = {talon[i] for i in reachable}
        if any(RANK[c] == KING for c in talon_free):
            king_free = True
        if 13 in found:
            king_free = True

        memo: dict[int, bool] = {}

        def comes(d: int) -> bool:
            """Could ``d`` be put next onto a card uncovered or placed for it?"""
            known = memo.get(d)
            if known is None:
                memo[d] = True  # a cycle of "uses" adds nothing: stay on the generous side
                known = memo[d] = _comes(d)
            return known

        def _comes(d: int) -> bool:
            if d in talon_free:
                return draw == 3 or any(comes(x) for x in CHILDREN[d])
            s = SUIT[d]
            if found[s] and found[s] - 1 == RANK[d]:
                return taking_down(s, found[s])
            k = top_of.get(d)
            if k is not None:  # heading a column's face-up group
                return bool(cols[k][0]) or king_free
            u = under.get(d)
            if u is None:
                return False
            return found[SUIT[u]] == RANK[u] or comes(TWIN[d])

        def send_up(c: int, below: int | None, reveal: bool, empties: bool) -> bool:
            """Could sending ``c`` up (it is free and fits) be used by the next move?"""
            if reveal or RANK[c] == KING or safe(c, found):
                return True
            n = c + 1
            k = top_at.get(n)
            if k is not None:
                dn, un = cols[k]
                one = len(un) == 1
                if send_up(n, un[-2] if not one else None, one and bool(dn), one and not dn):
                    return True
            elif n in talon_free and (draw == 3 or send_up(n, None, False, False)):
                return True
            if below is not None and (found[SUIT[below]] == RANK[below] or comes(TWIN[c])):
                return True
            return empties and king_free

        def taking_down(s: int, n: int) -> bool:
            c = s * 13 + n - 1
            if safe(c, found):
                return False
            if any(comes(d) for d in CHILDREN[c]):
                return True
            return n >= 2 and any(p in top_at for p in PARENTS[c - 1]) and taking_down(s, n - 1)

        for k, (down, up) in enumerate(cols):
            if not up:
                continue
            top = up[-1]
            s = SUIT[top]
            nd = len(down)
            if found[s] == RANK[top]:
                if len(up) == 1 and nd:
                    out.append((0 - nd, "c", k, 0, 7 + s))
                elif send_up(top, up[-2] if len(up) > 1 else None, False, len(up) == 1):
                    out.append((300, "c", k, len(up) - 1, 7 + s))
            for j, c in enumerate(up):
                if RANK[c] == KING:
                    if empty < 0 or not nd or j:
                        continue  # a King heading a column gains nothing in another one
                    out.append((200 - nd, "c", k, j, empty))
                    continue
                p1, p2 = PARENTS[c]
                d1 = top_at.get(p1, k)
                d2 = top_at.get(p2, k)
                if d1 == k and d2 == k:
                    continue
                if j == 0:
                    if nd:
                        prio = 200 - nd
                    elif king_free:
                        prio = 600
                    else:
                        continue
                else:
                    e = up[j - 1]
                    if found[SUIT[e]] == RANK[e] and send_up(
                        e, up[j - 2] if j >= 2 else None, j == 1 and nd > 0, j == 1 and not nd
                    ):
                        prio = 350
                    elif comes(TWIN[c]):
                        prio = 700
                    else:
                        continue
                if d1 != k:
                    out.append((prio, "c", k, j, d1))
                if d2 != k:
                    out.append((prio, "c", k, j, d2))
        for i in reachable:
            c = talon[i]
            if found[SUIT[c]] == RANK[c] and (draw == 3 or send_up(c, None, False, False)):
                out.append((100, "w", i, 7 + SUIT[c]))
            if not RANK[c]:
                continue  # an Ace is better off on its foundation
            if RANK[c] == KING:
                ds = (empty,) if empty >= 0 else ()
            else:
                p1, p2 = PARENTS[c]
                d1 = top_at.get(p1, -1)
                d2 = top_at.get(p2, -1)
                if d1 < 0 and d2 < 0:
                    continue
                ds = (d1, d2) if d1 >= 0 and d2 >= 0 else (max(d1, d2),)
            if ds and (draw == 3 or any(comes(d) for d in CHILDREN[c])):
                for d in ds:
                    out.append((400, "w", i, d))
        for s in range(4):
            n = found[s]
            if not n:
                continue
            c = s * 13 + n - 1
            if RANK[c] == KING:
                ds = [empty] if empty >= 0 else ()
            else:
                ds = [top_at[p] for p in PARENTS[c] if p in top_at]
            if ds and taking_down(s, n):
                for d in ds:
                    out.append((800, "f", s, d))
        if self.rng is None:
            out.sort(key=lambda m: m[0])
        else:
            jitter = self.rng.random
            spread = self.spread
            out.sort(key=lambda m: m[0] + spread * jitter())
        return out

    def play(self, node: tuple, move: tuple) -> tuple[tuple, list[tuple]]:
        """The position after ``move`` and the safe moves it triggers, with the list of
        primitive moves made: ("w", index, dest), ("c", col, index, dest), ("f", suit, col)."""
        cols = list(node[0])
        found = list(node[1])
        talon, pos = node[2], node[3]
        source = move[1]
        if source == "w":
            i, d = move[2], move[3]
            c = talon[i]
            talon = talon[:i] + talon[i + 1 :]
            pos = i
            if d >= FOUNDATION:
                found[d - FOUNDATION] += 1
            else:
                down, up = cols[d]
                cols[d] = (down, up + bytes((c,)))
        elif source == "c":
            k, j, d = move[2], move[3], move[4]
            down, up = cols[k]
            run, rest = up[j:], up[:j]
            if not rest and down:
                rest, down = down[-1:], down[:-1]
            cols[k] = (down, rest)
            if d >= FOUNDATION:
                found[d - FOUNDATION] += 1
            else:
                dd, du = cols[d]
                cols[d] = (dd, du + run)
        elif source == "f":
            s, d = move[2], move[3]
            c = s * 13 + found[s] - 1
            found[s] -= 1
            dd, du = cols[d]
            cols[d] = (dd, du + bytes((c,)))
        prims = [move[1:]] if source != "settle" else []
        # Safe moves to the foundations: look only at the next card of each suit.
        changed = True
        while changed:
            changed = False
            for s in range(4):
                n = found[s]
                if n == 13:
                    continue
                if n > 1:  # safe(c, found), unrolled: this loop runs for every position
                    a, b = OTHER_COLOUR[s]
                    if found[a] < n or found[b] < n:
                        continue
                c = s * 13 + n
                for k in range(7):
                    down, up = cols[k]
                    if up and up[-1] == c:
                        found[s] += 1
                        prims.append(("c", k, len(up) - 1, FOUNDATION + s))
                        rest = up[:-1]
                        if not rest and down:
                            rest, down = down[-1:], down[:-1]
                        cols[k] = (down, rest)
                        changed = True
                        break
                else:
                    if self.draw == 1:
                        i = talon.find(c)
                        if i >= 0:
                            found[s] += 1
                            prims.append(("w", i, FOUNDATION + s))
                            talon = talon[:i] + talon[i + 1 :]
                            pos = i
                            changed = True
        return (tuple(cols), tuple(found), talon, pos), prims

    def finish(self, node: tuple) -> list[tuple] | None:
        """With every column card face up: play the lowest free card up until done
        (always works in Draw 1), or None if that gets stuck."""
        cols = list(node[0])
        found = list(node[1])
        talon, pos = node[2], node[3]
        prims = []
        while sum(found) < 52:
            best = None
            for k, (_, up) in enumerate(cols):
                if up and found[SUIT[up[-1]]] == RANK[up[-1]]:
                    if best is None or RANK[up[-1]] < best[0]:
                        best = (RANK[up[-1]], "c", k, len(up) - 1, FOUNDATION + SUIT[up[-1]])
            for i in reach(len(talon), pos, self.draw):
                c = talon[i]
                if found[SUIT[c]] == RANK[c] and (best is None or RANK[c] < best[0]):
                    best = (RANK[c], "w", i, FOUNDATION + SUIT[c])
            if best is None:
                return None
            if best[1] == "w":
                i = best[2]
                found[SUIT[talon[i]]] += 1
                talon, pos = talon[:i] + talon[i + 1 :], i
            else:
                k = best[2]
                found[SUIT[cols[k][1][-1]]] += 1
                cols[k] = (cols[k][0], cols[k][1][:-1])
            prims.append(best[1:])
        return prims

    def won(self, node: tuple) -> list[tuple] | None:
        if sum(node[1]) == 52:
            return []
        if any(down for down, _ in node[0]):
            return None
        return self.finish(node)

    # -- dead ends

    def dead(self, node: tuple) -> bool:
        """True when ``node`` can't be won even in a relaxed game (so not in the real one).

        Every card must come free (be the top of its pile) at some point. The relaxed game
        ignores timing and room, so it allows everything the real one allows, and asks of
        each card only whether it is ever free, ever a column's top (a *spot*: a card can
        only be built on in a column), and (for a column card) whether it ever leaves:

        - talon cards are free; the top card of each pile is free; the card under a card is
          free once that card leaves;
        - a column card is a spot once free; a talon or foundation card is a spot when it is
          free and can come onto a column: it is a King (an empty column is assumed) or one
          of the two cards it may go on is a spot. A foundation card that comes onto a column
          leaves its foundation, freeing the card under it there;
        - a column card leaves if it is a King, or one of the two cards it may go on is a spot
          (a face-up card takes the cards on it along; a face-down card must be free first),
          or it is free and every lower card of its suit is ever free or home (it goes up).

        A column card that is never free in the relaxed game never is in the real one.
        """
        cols, found, talon, _ = node
        rank, suit, parents, children = RANK, SUIT, PARENTS, CHILDREN
        free = bytearray(52)
        spot = bytearray(52)
        done = bytearray(52)  # a column card left, a talon or foundation card is a spot
        kind = bytearray(52)  # 0 talon, 1 foundation, 2 face down, 3 face up
        below = [-1] * 52
        todo = list(talon)
        remaining = 0  # column cards never free so far
        for down, up in cols:
            if up:
                cards = down + up
                for i in range(1, len(cards)):
                    below[cards[i]] = cards[i - 1]
                for c in down:
                    kind[c] = 2
                for c in up:
                    kind[c] = 3
                remaining += len(cards) - 1
                free[cards[-1]] = spot[cards[-1]] = 1
                todo += up
        if not remaining:
            return False
        for c in talon:
            free[c] = 1
        low = list(found)  # per suit, the lowest rank neither home nor ever free
        for s in range(4):
            base = s * 13
            n = found[s]
            if n:
                for c in range(base, base + n):
                    kind[c] = 1
                    below[c] = c - 1
                below[base] = -1
                free[base + n - 1] = 1
                todo.append(base + n - 1)
            while n < 13 and free[base + n]:
                n += 1
            low[s] = n
        pop, push = todo.pop, todo.append
        while todo:
            c = pop()
            if done[c]:
                continue
            k = kind[c]
            r = rank[c]
            if k < 2:  # a talon or foundation card: can it come onto a column?
                if not free[c]:
                    continue
                if r != KING:
                    p1, p2 = parents[c]
                    if not (spot[p1] or spot[p2]):
                        continue
                done[c] = spot[c] = 1
                for d in children[c]:
                    if not done[d]:
                        push(d)
                if k == 1:
                    b = below[c]
                    if b >= 0:
                        free[b] = 1
                        push(b)
                continue
            if k == 2 and not free[c]:
                continue
            if r != KING:
                p1, p2 = parents[c]
                if not (spot[p1] or spot[p2] or (free[c] and low[suit[c]] >= r)):
                    continue
            done[c] = 1
            b = below[c]
            if b < 0 or free[b]:
                continue
            remaining -= 1
            if not remaining:
                return False
            free[b] = spot[b] = 1
            push(b)
            for d in children[b]:
                if not done[d]:
                    push(d)
            s = suit[b]
            rb = rank[b]
            if rb == low[s]:
                base = s * 13
                n = rb + 1
                while n < 13 and free[base + n]:
                    n += 1
                low[s] = n
                for x in range(base + rb + 1, base + min(n, 12) + 1):
                    if free[x] and not done[x] and kind[x] >= 2:
                        push(x)
        return True

    def dead_at(self, node: tuple, key: bytes) -> bool:
        """``dead(node)``, ``key`` being its key; remembered in Draw 3, where positions that
        differ only in how many talon cards are on the waste are common."""
        if self.draw == 1:
            return self.dead(node)
        talon = node[2]
        memo_key = key[: len(key) - len(talon) - 1] + talon
        known = self.dead_memo.get(memo_key)
        if known is None:
            known = self.dead_memo[memo_key] = self.dead(node)
        return known

    # -- the search

    def run(self, root: tuple) -> tuple[str, list[tuple]]:
        """Depth-first search from ``root``: ("won", primitive moves) / ("lost", []) /
        ("unknown", [])."""
        start_prims: list[tuple] = []
        node = root
        # The root itself may have safe moves pending.
        node, start_prims = self._settle(node)
        done = self.won(node)
        if done is not None:
            return "won", start_prims + done
        if self.use_dead and self.dead(node):
            return "lost", []
        visited = {self.key(node)}
        stack = [(node, self.moves(node), 0)]
        path: list[list[tuple]] = []
        clock = CLOCK
        while stack:
            node, moves, i = stack[-1]
            if i >= len(moves):
                stack.pop()
                if path:
                    path.pop()
                continue
            stack[-1] = (node, moves, i + 1)
            child, prims = self.play(node, moves[i])
            k = self.key(child)
            if k in visited:
                continue
            visited.add(k)
            self.nodes += 1
            if self.nodes & 255 == 0:
                if clock() > self.deadline or (self.max_nodes and self.nodes >= self.max_nodes):
                    return "unknown", []
            done = self.won(child)
            if done is not None:
                line = start_prims + [p for step in path for p in step] + prims + done
                return "won", line
            if self.use_dead and self.worth_testing(moves[i]) and self.dead_at(child, k):
                continue
            stack.append((child, self.moves(child), 0))
            path.append(prims)
        return "lost", []

    def score(self, node: tuple) -> int:
        """How far ``node`` looks from a win (lower is nearer): face-down cards weigh most."""
        cols, found, _, _ = node
        return DOWN_WEIGHT * sum(len(down) for down, _ in cols) - sum(found)

    def best_first(self, root: tuple) -> tuple[str, list[tuple]]:
        """Best-first search from ``root`` (lowest ``score`` first, the newest position
        among equals), the same moves, dead-end test and table of positions as ``run``; each
        position keeps the one it was reached from, for the line. Complete, like ``run``."""
        node, start_prims = self._settle(root)
        done = self.won(node)
        if done is not None:
            return "won", start_prims + done
        if self.use_dead and self.dead(node):
            return "lost", []
        key = self.key(node)
        parent: dict[bytes, tuple] = {key: (None, start_prims)}
        heap = [(self.score(node), 0, node, key, False)]
        pop, push = heapq.heappop, heapq.heappush
        clock = CLOCK
        tick = 0
        use_dead = self.use_dead
        while heap:
            _, _, node, node_key, test = pop(heap)
            # The dead-end test waits until a position is taken up: most never are.
            if test and self.dead_at(node, node_key):
                continue
            for move in self.moves(node):
                child, prims = self.play(node, move)
                k = self.key(child)
                if k in parent:
                    continue
                parent[k] = (node_key, prims)
                self.nodes += 1
                if self.nodes & 255 == 0:
                    if clock() > self.deadline or (self.max_nodes and self.nodes >= self.max_nodes):
                        return "unknown", []
                done = self.won(child)
                if done is not None:
                    line = done
                    while k is not None:
                        k, prims = parent[k]
                        line = prims + line
                    return "won", line
                tick -= 1
                test = use_dead and self.worth_testing(move)
                push(heap, (self.score(child), tick, child, k, test))
        return "lost", []

    @staticmethod
    def worth_testing(move: tuple) -> bool:
        """Is the position after ``move`` worth the dead-end test? Skipping it is always
        allowed; turning a card over, emptying a column and putting a talon card on a column
        are the moves seen to reach dead positions in practice."""
        return move[-1] < FOUNDATION and (move[0] < 300 or move[0] == 400)

    def _settle(self, node: tuple) -> tuple[tuple, list[tuple]]:
        """Make the safe moves pending in ``node``."""
        return self.play(node, (0, "settle"))


# ---- lines of contract actions -----------------------------------------------------------------


def dest_name(d: int) -> str:
    return board.COLUMNS[d] if d < FOUNDATION else "f" + SUITS[d - FOUNDATION]


def to_actions(root: tuple, prims: list[tuple], draw: int) -> list[dict]:
    """Turn primitive moves into the contract's actions, with the draws and recycles."""
    cols = [list(map(list, col)) for col in root[0]]
    found = list(root[1])
    talon, pos = list(root[2]), root[3]
    out: list[dict] = []
    for prim in prims:
        source = prim[0]
        if source == "w":
            i, d = prim[1], prim[2]
            guard = 0
            while pos - 1 != i:
                if pos < len(talon):
                    pos = min(pos + draw, len(talon))
                    out.append({"type": "draw"})
                else:
                    pos = 0
                    out.append({"type": "recycle"})
                guard += 1
                if guard > 3 * len(talon) + 6:
                    raise AssertionError("talon card out of reach")
            c = talon.pop(i)
            pos = i
            out.append({"type": "move", "from": "waste", "card": NAME[c], "to": dest_name(d)})
            if d >= FOUNDATION:
                found[d - FOUNDATION] += 1
            else:
                cols[d][1].append(c)
        elif source == "c":
            k, j, d = prim[1], prim[2], prim[3]
            down, up = cols[k]
            run = up[j:]
            del up[j:]
            if not up and down:
                up.append(down.pop())
            out.append(
                {"type": "move", "from": board.COLUMNS[k], "card": NAME[run[0]], "to": dest_name(d)}
            )
            if d >= FOUNDATION:
                found[d - FOUNDATION] += 1
            else:
                cols[d][1].extend(run)
        else:
            s, d = prim[1], prim[2]
            c = s * 13 + found[s] - 1
            found[s] -= 1
            cols[d][1].append(c)
            out.append(
                {"type": "move", "from": "f" + SUITS[s], "card": NAME[c], "to": dest_name(d)}
            )
    return out


def check_line(state: dict, line: list[dict]) -> bool:
    """Does ``line`` (draws, recycles and moves) apply legally to a copy of ``state`` and win?
    Checked with the board's own rules, the ones the engine's moves use."""
    work = copy.deepcopy(state)
    for action in line:
        action_type = action["type"]
        if action_type == "draw" and work["stock"]:
            board.do_draw(work)
        elif action_type == "recycle" and not work["stock"] and work["waste"]:
            board.do_recycle(work)
        elif action_type == "move":
            frm, card, to = action["from"], action["card"], action["to"]
            if board.move_problem(work, frm, card, to):
                return False
            board.do_move(work, frm, card, to, board.position_of(work, frm, card))
        else:
            return False
    return board.cards_home(work) == 52


def board_over(state: dict) -> bool:
    return bool(state["won"] or state["resigned"])


# ---- the public functions ----------------------------------------------------------------------


# The best-first search gets this share of the budget; then depth-first searches with a
# shuffled move order (priorities plus seeded noise, so repeatable) and growing node limits
# share the rest. Depth-first search has a heavy tail: a deal that one move order gets lost in
# is often quick with another. Any of them may prove a loss too (the move order does not
# change what is searched).
MAIN_SHARE = 0.5
# Budgets are CPU seconds of the thread that searches: a busy machine then slows a search
# down without making it give up sooner, and in a server, where the hint runs on a worker
# thread, the other threads' work is not charged to it (process time would count it).
CLOCK = time.thread_time
RESTART_NODES = 1500
# How far the restarts' move order is shuffled (priority units; the move classes lie from 0 to 800):
# far enough that a restart often tries another class of move first. 600 decided more deals
# than 150 on every Draw 3 set measured, and in Draw 1 on the whole (docs/klondike-solver.md).
SPREAD = 600


def portfolio(
    root: tuple,
    draw: int,
    started: float,
    seconds: float,
    max_nodes: int | None,
    relaxed_check: bool,
) -> tuple[str, list[tuple], int]:
    deadline = started + seconds
    first_nodes = max_nodes // 2 if max_nodes else None
    search = Search(draw, started + seconds * MAIN_SHARE, first_nodes, relaxed_check)
    status, prims = search.best_first(root)
    nodes = search.nodes
    memo = search.dead_memo
    k = 0
    while status == "unknown" and CLOCK() < deadline:
        if max_nodes and nodes >= max_nodes:
            break
        k += 1
        limit = RESTART_NODES * (1 + (k - 1) // 3)
        if max_nodes:
            limit = min(limit, max_nodes - nodes)
        search = Search(draw, deadline, limit, relaxed_check)
        search.rng = random.Random(k)
        search.spread = SPREAD
        search.dead_memo = memo
        status, prims = search.run(root)
        nodes += search.nodes
    return status, prims, nodes


def solve(
    state: dict, seconds: float = 2.0, max_nodes: int | None = None, relaxed_check: bool = True
) -> dict[str, Any]:
    """Search ``state`` (full knowledge) for a win within ``seconds`` of CPU time (``CLOCK``)
    and ``max_nodes`` positions if given. Returns {"status", "line", "nodes", "seconds"}.
    ``relaxed_check=False`` turns off the dead-end test (for tests of the plain search)."""
    started = CLOCK()
    draw = state["draw"]
    result: dict[str, Any] = {"status": "unknown", "line": [], "nodes": 0}
    if state.get("won"):
        result["status"] = "won"
    elif state.get("resigned"):
        result["status"] = "lost"
    else:
        root = position(state)
        status, prims, nodes = portfolio(root, draw, started, seconds, max_nodes, relaxed_check)
        result["nodes"] = nodes
        if status == "won":
            line = to_actions(root, prims, draw)
            if check_line(state, line):
                result.update(status="won", line=line)
        else:
            result["status"] = status
    result["seconds"] = round(CLOCK() - started, 4)
    return result


def winnable_seed(
    base_seed: str,
    draw: int = 1,
    seconds: float = 2.0,
    max_tries: int = 100,
    max_nodes: int | None = None,
) -> str | None:
    """The first seed f"{base_seed}/{i}" (i = 0, 1, ...) whose deal the solver proves winnable
    within the budget, or None after ``max_tries`` seeds. (A time budget makes the choice
    depend on the machine's speed in rare cases; pass ``max_nodes`` for a fixed answer.)"""
    for i in range(max_tries):
        seed = f"{base_seed}/{i}"
        state = board.deal(seed, draw)
        if solve(state, seconds, max_nodes)["status"] == "won":
            return seed
    return None


# ---- hints -------------------------------------------------------------------------------------


def known_cards(state: dict) -> tuple[list[str], int]:
    """What the player knows: (the stock cards already seen, top first) and how many stock
    cards were never turned. Face-up cards are in the state's open piles."""
    seen = len(state["stock"]) - state["stock_unseen"]
    return state["stock"][:seen], state["stock_unseen"]


def hidden_slots(state: dict) -> int:
    return state["stock_unseen"] + sum(len(state["columns"][c]["down"]) for c in board.COLUMNS)


def lookalikes(state: dict, count: int, rng: random.Random) -> list[dict]:
    """Deals the player can't tell from ``state``: every face-up card and every stock card
    already seen where it is, the other cards dealt at random into the unseen places. Built
    from what the player knows only (the unseen cards are "all cards not seen")."""
    seen_stock, unseen = known_cards(state)
    known = set(state["waste"]) | set(seen_stock)
    for name in board.COLUMNS:
        known.update(state["columns"][name]["up"])
    for f in board.FOUNDATIONS:
        known.update(state["foundations"][f])
    pool = [c for c in NAME if c not in known]
    out = []
    for _ in range(count):
        cards = pool[:]
        rng.shuffle(cards)
        sample = copy.deepcopy(state)
        sample["history"] = []
        for name in board.COLUMNS:
            n = len(state["columns"][name]["down"])
            sample["columns"][name]["down"] = cards[:n]
            del cards[:n]
        sample["stock"] = list(seen_stock) + cards[:unseen]
        out.append(sample)
    return out


def public_digest(state: dict, view: dict) -> str:
    """A digest of what the player can see (seeds the lookalike deals; no hidden card in it)."""
    seen_stock, unseen = known_cards(state)
    public = {
        "view": view,
        "waste": state["waste"],
        "stock_seen": seen_stock,
        "unseen": unseen,
    }
    text = json.dumps(public, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def describe(state: dict, action: dict | None) -> str:
    """The advice in words, as the table shows it (one wording: the engine's hint_words)."""
    if action is None:
        return say("No useful move is left: undo some moves or start a new deal.")
    return board.hint_words(state, action)


def heuristic_hint(state: dict, view: dict, legal: list[dict]) -> dict[str, Any]:
    action = board.heuristic_action(view, legal)
    if action["type"] == "resign":
        action = None
    return {"action": action, "source": "heuristic", "message": describe(state, action)}


def lead_move(line: list[dict], legal: list[dict]) -> dict:
    """The move to suggest from a winning line. Lines often open with stock draws; a later
    move of a column card that is legal now commutes with those draws (they touch only the
    stock and waste), so suggest it first: it is the move a player can see to make."""
    for action in line:
        if action["type"] in ("draw", "recycle"):
            continue
        if action.get("from") != "waste" and action in legal:
            return action
        break
    return line[0]


def hint(
    state: dict,
    view: dict,
    legal: list[dict],
    seconds: float = 1.0,
    samples: int = 6,
    max_nodes: int | None = None,
) -> dict[str, Any]:
    """{"action", "source": "solver" | "heuristic", "message"} for the player's position, with
    the player's ``view`` and ``legal`` actions (the engine's).

    Never uses a hidden card (see the module docstring): while cards are hidden it solves up to
    ``samples`` lookalike deals within ``seconds`` in all; when nothing is hidden, the real
    position. ``max_nodes`` caps each search too (a fixed cap makes the hint the same on any
    machine). Extra keys: "wins"/"tried" (lookalikes won / solved), "proven" (an exact
    winning line) or "winnable": False (the known position is proven lost)."""
    if board_over(state):
        return {"action": None, "source": "heuristic", "message": say("The game is over.")}
    if {"type": "finish"} in legal:
        return {
            "action": {"type": "finish"},
            "source": "solver",
            "message": describe(state, {"type": "finish"}),
        }
    started = CLOCK()
    if hidden_slots(state) == 0:
        result = solve(state, seconds, max_nodes)
        if result["status"] == "won" and result["line"]:
            action = lead_move(result["line"], legal)
            moves = len(result["line"])
            return {
                "action": action,
                "source": "solver",
                "proven": True,
                "message": say(
                    "{move} It starts a winning line ({moves} actions).",
                    move=describe(state, action),
                    moves=moves,
                ),
            }
        out = heuristic_hint(state, view, legal)
        if result["status"] == "lost":
            out["winnable"] = False
            lost = say(
                "This position can no longer be won: undo to an earlier point or start a new deal."
            )
            out["message"] = (
                say("{why} {move}", why=lost, move=describe(state, out["action"]))
                if out["action"]
                else lost
            )
        return out
    rng = random.Random(public_digest(state, view))
    votes: Counter[str] = Counter()
    first: dict[str, dict] = {}
    tried = 0
    for sample in lookalikes(state, samples, rng):
        left = started + seconds - CLOCK()
        if left <= 0:
            break
        result = solve(sample, left / (samples - tried), max_nodes)
        tried += 1
        if result["status"] == "won" and result["line"]:
            action = lead_move(result["line"], legal)
            text = json.dumps(action, sort_keys=True)
            votes[text] += 1
            first.setdefault(text, action)
    if votes:
        text, wins = max(votes.items(), key=lambda kv: kv[1])
        action = first[text]
        if action in legal:
            return {
                "action": action,
                "source": "solver",
                "wins": wins,
                "tried": tried,
                "message": say(
                    "{move} It starts a winning line in {wins} of {tried} deals that look like "
                    "yours.",
                    move=describe(state, action),
                    wins=wins,
                    tried=tried,
                ),
            }
    return heuristic_hint(state, view, legal)
