//! `gain`: what a tactic nets once the exchange it starts is over (issue
//! 24), read off the line rather than off the piece it hits.
//!
//! How Koga computes it, for every fire whose detector saw material to win
//! (a stake) or whose label is a material motif:
//! - **The men it wins.** The enemy men the fire names as there to be won:
//!   its `victim`, `pinned`, `behind` and `targets` (kings never count), where
//!   they stand right after the fire's move.
//! - **The capture that collects it.** The move of ours that takes the most
//!   valuable of those men the line takes (the fire's own move, or a later
//!   one, the men followed as the opponent moves them): a fork's queen taken
//!   two moves on wherever it fled, after the knight that fled first.
//! - **The exchange it starts**: that capture and the captures that follow
//!   it in the line without a quiet move between (the recapture, and the
//!   queen the recapturing king let go), and the opponent's capture on our
//!   square after a check of theirs in between and our answer (the
//!   zwischenzug is charged), or on a man of ours that stood since the key
//!   move after a capture of theirs with check and our answer (08Erp:
//!   ...Rxh5 Bxh5+ ...Kf8 dxe7+ ...Qxe7: 3, not 5), the exchange stopping
//!   there where another tactic of ours takes next (Lichess 0AfWu: ...gxf4
//!   takes the rook, Qc3+ ...Kg8 traps the knight, exf4 ...Qxf8: 4, not 7;
//!   5 dev gains, each down, each now summing with the line's other gains
//!   to its net).
//!   - Where the tactic sets up a later capture, the exchange runs on
//!     through our checks and their answers, up to a move where another
//!     tactic wins or gives material (Lichess 08hfz: the first fork's
//!     queen, the second fork's rook); a check of theirs starts something
//!     else.
//!   - A capture that takes back where the opponent just captured or
//!     promoted counts from the first move of that run (a queen taken as
//!     it is made is a pawn won), or from after their capture where the run
//!     starts with their capture of the man a sacrifice of ours gave there:
//!     the sacrifice is charged that man (08Ao7: ...Re3, fxe3, and the
//!     ...Nxe3+ fork nets 7, not 2).
//!   - An opponent's desperado elsewhere (a man we attack, sold for a
//!     lesser man we take back, the captures ending there, no line of
//!     theirs opened) is a trade of its own: the next fire's, not counted
//!     twice (where we take it back with check, its side answers the check
//!     first: 01uDg, Nxf8 ...Nxf6 Qxf6+, and the knight gets out: 5, not 2;
//!     2 dev gains). So is any capture or promotion of theirs elsewhere
//!     that another tactic of ours takes back at once (Lichess 08B8I: gxf5
//!     wins the bishop, ...Qxf6 Rxf6 is the next fire's: 3, not 9; 05Shd:
//!     ...Nxf2 wins the bishop, a8=Q+ ...Kxa8 is the next fire's: 2, not
//!     -6; 19 dev gains in 14 puzzles), one whose fire
//!     names the man it takes back, gives material or has a stake: the
//!     retake of a pin that names other men goes on with the exchange
//!     (0758S: Bxf6 wins the queen, ...Nxg3 Rxg3 trades ours: 3, not 9; 1
//!     dev gain). The exchange either cuts is settled as at the line's end,
//!     the capturing man left out.
//! - **The line's end.** Where the line ends before the opponent has
//!   answered, a small capture search finishes it: what the opponent still
//!   nets by captures (4 plies, material only, either side free to stop),
//!   starting on the exchange's last square or with a man of ours the
//!   exchange left hanging, is taken off. So where the exchange ends with
//!   our capture and the line with our quiet answer to their quiet check
//!   (Lichess 095vY: ...Rxa7 Qb8+ ...Kf7, and Qxa7: -2, not 3; 02lVn:
//!   ...Rxe7 Rc8+ ...Re8, and Rxe8+: 4, not 9; 76 dev gains, each down),
//!   or with our quiet answer to their capture with check (044Gb: ...Bxe1
//!   exf7+ ...Kf8, and Kxe1: 2, not 5; 1 dev gain).
//!   - Before the first captures on those men, a side may capture any
//!     other man with check, where that capture loses nothing by its
//!     exchange and the man did not stand en prise before the key move:
//!     the checked side must answer, and the captures go on (Lichess
//!     04fOl: hxg7+ Kxg7 before Kxd2, a pawn traded, not lost: 3, not 4;
//!     03FPz: the queen that blocks our check is taken with check, 7, not
//!     3; 138 dev gains).
//!   - A side in check may not stop: it plays its best legal answer, a
//!     king step, a block or a capture, and the other side's captures go
//!     on from there (Lichess 040Jq: ...Qxf1+ Kd2 ...Qxf2+ takes the pawn
//!     too: 1, not 2). A capture with check on the search's last ply is
//!     answered all the same (05Vzs: ...Qxf2+ meets Kxf2: 6, not 7). So a
//!     capture may net more than it takes, and the search's bounds leave
//!     out only captures that give no check. At the line's end, the other
//!     side may then also take what the answer itself leaves en prise
//!     (Lichess 04E6r: after ...Rxc1+, Ke2 leaves the h1 rook: 6, not 1;
//!     0AyxI: Kxc2 opens the first rank for ...Qxa1: 5, not 0; 100 dev
//!     gains in 61 puzzles, 98 up; judged c5717), and an answer after
//!     which the checking side mates in one is played only where every
//!     answer allows one (07V4V: after ...Bf5+, Kg5 meets ...Qg3#, so
//!     Qxf5 ...Qxf5+ gives the queen: 7, not 2; 14 dev gains in 10
//!     puzzles, each up; judged c5716).
//!   - The opponent's captures after our answer, as its first, leave
//!     alone the men of ours that stood en prise before the key move
//!     (Lichess 05uHR: after ...cxb3, axb3 ...Nxd5, and Qxa7 would take
//!     a pawn the queen hit before the key move: 3, not 2; 45 dev gains
//!     in 30 puzzles, all up; judged c6008).
//!   - A capture on the search's last ply counts as its static exchange
//!     on that square, not as the man whole (Lichess 07GSL: after Rxf6+
//!     is answered, Rxb6 meets the king's recapture: 3, not 4; 103 dev
//!     gains, of 25 read 17 closer and 8 farther, most of those where a
//!     quiet move decides, which no captures-only search sees).
//!   - A king guards only a man it may take back: not one whose square
//!     stays attacked after the first capture (0CKgM: fxg4 opens the
//!     f-file, and Bxf7+ Kh8 Bxe8 follows: 3, not 5). Nor, for a side in
//!     check, a piece the checker hits that the king alone guards: the
//!     answer may give it up (0CIBR: ...Qxg2+ hits the f1 rook, and Kd1
//!     ...Qxf1+ follows: 7, not 2; 3 dev gains, each up).
//!   - Instead of capturing, the opponent may check with a man that
//!     stands safe and hits one of our pieces worth more than it or
//!     undefended: we answer the check as best we can, and lose what the
//!     capture search then finds (Lichess 0ALii: ...gxh5 wins the trapped
//!     queen, and Nf7+ forks king and queen: 2, not 8). Not where we have
//!     a mate in one to play (03fqG: Qg7# is threatened), unless the check
//!     hits the man that mates (00IDw: Nd6+ forks the rook of ...Re1#;
//!     judge5501). Found once a line; 23 dev gains, 13 of the 15 puzzles
//!     read closer to Stockfish's continuation (06bZ9 and 0BDWC not: a
//!     mate after the capture, and a knight that takes into a corner).
//!   - A capture of theirs at the line's end that we answer with such a
//!     forking check nets them no more than the fork leaves (Lichess
//!     02fM9: ...Rxf3 would take the queen for the rook, but Nc6+ forks
//!     king and queen, and ...Bxd4 takes the knight instead: 2, not 1;
//!     02WAN: ...gxh4 walks into Nf6+: 3, not 0). 72 dev gains in 46
//!     puzzles, all up; Stockfish's lines put 36 closer, 10 farther (a
//!     check that only repeats); judged c6303 and c6304 (24 of the 46):
//!     new 19, old 0, neither 5, each closer to the new. +146
//!     instructions a puzzle.
//!   - Where the opponent, to move at the line's end and not in check,
//!     nets nothing so, it loses what no answer saves of its men the line
//!     left undefended under our attack, pieces a lesser man of ours hits
//!     (those for the difference) or men we hit more often than they guard
//!     them (for what the static exchange wins; none so before the key
//!     move) ([`lost_loose_men`]: a bitboard test of each answer, no search;
//!     Lichess 00oSB: Kxc6 takes the d5 pawn's guard: 2, not 1; 037nc:
//!     ...Rxe2 hits b2 and f2, and one falls: 5, not 4). A search over
//!     every answer moved 688 gains, judged 16 right and 1 wrong of 20, at
//!     +5,090 instructions a puzzle. Asked of pawns alone, the test moved
//!     110 gains (+112 instructions), 99 of them to the search's values;
//!     asked of every loose man, with two men no one answer saves losing
//!     the lesser, 168 more (judge5401: 14 of 20 read right, 5 wrong: a
//!     passed pawn that runs, a grab that leaves a man of ours), +62;
//!     pieces a lesser man hits, 29 more in 15 puzzles (0AddK: the queen a
//!     rook pins, 5 not 1; 030zt: a knight forks two guarded men; judge5404:
//!     8 right, 4 wrong, 3 neither but closer: an escape that hits a man
//!     of ours, which a rule tried for it misread more often), +28. A check
//!     saves them only where the checker stands safe (and not a loose man
//!     beside our king that the king then takes: 09TiY's ...Bf4+ Kxg4,
//!     6, not 5; nor a spite check, by a man not loose itself that hits no
//!     man of ours it could win worth what they stake, which our king,
//!     not among the men that hit them, steps off to a free square:
//!     07s3C's ...Rd2+ Kg3, 8, not 5; 75 dev gains in 50 puzzles, all
//!     up; Stockfish's lines 33 closer, 16 farther; judged c6301, c6302
//!     and c6305, 38 of the 50: new 23, old 7, the rest mostly closer to
//!     the new; +43), and men hit more
//!     often than guarded count: 130 more in 78 puzzles, all up (01E0R:
//!     ...Qxe3+ gives the queen away; 04aWV: b4 hit twice, guarded once;
//!     judge5501: 12 of 20 read right, 5 wrong, 3 neither but closer, the
//!     wrongs counter-attacks and a poisoned pawn), +113. A loose man
//!     that takes a man of ours where it is taken in turn sells itself for
//!     what it takes (02e7X: the trapped knight's ...Nxh2, 3 not 4), +13.
//!     A man of ours the opponent may take instead saves its men, but not
//!     one that stood en prise before the key move, the premise (07FFK:
//!     Rxb4 saves one rook, and ...Nxf1 wins the other for the knight: 11,
//!     not 9; 33 dev gains in 17 puzzles, all up; judged c5723: new 5,
//!     old 2, neither 3, the three closer to the new), nor one whose only
//!     taker is pinned to its king off the line (0B9Ov: the a7 queen,
//!     pinned on the a-file, "hits" the d7 queen and is lost: 9, not 5).
//!   - Where the line ends with our check and the opponent has one legal
//!     answer, we may then check the same way, or with a man only a
//!     greater man may take, guarded, whose every answer may lose
//!     (Lichess 08QFG: ...Qxf3+ Kg1, and ...Rg8+ wins the queen for the
//!     rook: 9, not 5; 03zMQ: ...Qxe3+ Kh2 ...Qe5+ forks the a5 knight).
//!     12 dev gains, each up; read with Stockfish, 6 of the 8 puzzles
//!     closer, 2 neither (a pawn a check wins where Stockfish plays for
//!     more). +83 instructions a puzzle, most of it asking whether the
//!     answer is the only one.
//!   - A first capture after which we mate in one is not one the
//!     opponent plays (Lichess 04uIX: ...Qxc6 would take the pinning
//!     queen, and Rd8# follows: bxc5 nets the bishop, 3, not -6; 57 dev
//!     gains, each up, 02L3h 2 -> 7). Searched once for every exchange
//!     that ends on the same move against the same premise.
//!   - A man is en prise where it is undefended or a lesser man attacks
//!     it (Lichess 03Lyw: the rook on b3 a pawn takes), but not by a man
//!     pinned to its king, or to a greater man behind it, that would
//!     leave the pin's line (042kS: the f6 queen the pinned e7 bishop
//!     hits was not en prise before the key move; 2, not -1).
//!   - In it our side only answers: it takes back, takes what their
//!     capture unmasked or left unguarded or what the line left en prise,
//!     saves an attacked man with a capture, takes a greater man with a
//!     lesser, or captures with check; and it may take back later a man
//!     whose capture it could not answer at once, having a check to
//!     answer first (Lichess 09vCU: Bxc8+ unmasks the e1 rook, ...Kd8
//!     Rxa1 ...Kxc8: 0, not -3; 26 dev gains, of 14 read 9 closer and
//!     none farther). A trade of ours that was there anyway does not
//!     cancel what they win. Promotions by a push were tried (15 dev
//!     gains, of 11 read 5 closer and 3 farther: a new queen that a mate
//!     or a knight's fork answers) and left out.
//!   - A recapturer pinned to a piece behind it gives that piece up, as
//!     the search sees: the defender the tactic pinned does not recapture.
//!   - A man that stood en prise before the key move is not its business,
//!     for either side (where the puzzle ends, such a man is often immune
//!     for a reason material alone cannot see), unless it is ours and the
//!     setup move put it en prise (Lichess 06etG: h6 hits the g7 bishop,
//!     ...Qh5+ Qh3 ...Qxg6 wins the rook, and hxg7 Kxg7 follows: 3, not 5;
//!     315 dev gains), by its piece or by opening a line onto it, or by
//!     taking or blocking its guard (046Sy: ...Bxe4 takes the rook that
//!     guarded e5, and after Rxe4 ...Qxe4 dxe4 ...Rxe5 follows: 4, not 7;
//!     49 dev gains more); one the line left en prise
//!     on the way is (Lichess 08p4b: ...Rxe1 Nxe8 ...Bxf3 wins the queen,
//!     and Rxe1 then takes back the rook).
//! - **The net** is the material balance (ours minus theirs) once that
//!   exchange is over, minus the balance before the fire's move: the skewered
//!   queen that costs the skewering rook nets 4, not 9; a capture that ends
//!   in a lost exchange nets below zero, and says so. Where the fire's move
//!   takes back on the square where the opponent just captured, the balance
//!   is counted from the first capture of that run on the square (no
//!   earlier than the key move): a fork that retakes a sacrificed piece does
//!   not count the piece twice. Where it takes back late, moves elsewhere
//!   between, the man that took one of ours on its square after a quiet
//!   move of ours, what that capture took is taken off, as it would be at
//!   once (Lichess 02rFZ: Qa4 ...Nxc4 exd7 ...Qxd7 Qxc4: 0, not 3; 9 dev
//!   gains, each down by the man taken; judged blind against the old, c6322:
//!   new 9 of 9). So where their capture came just before our move,
//!   elsewhere, and the run our move starts takes their man back (0BuQl:
//!   Nxf6 ...Qxf3, and Nxe8+ ...Rxe8 gxf3: 2, not 11; c6323: new 3 of 3).
//! - **A trade on two squares.** Where our capture answers one of theirs
//!   elsewhere, of a man worth the same, that answered a quiet move of ours,
//!   a capture a fire (no payoff) wins material on (whose exchange runs
//!   through both) or a capture no fire names, the capture counts from
//!   before theirs (Lichess 02wgI: Nxe5 wins the knight, ...Bxe2 Nxd7
//!   trades the queens: 0, not 9; 089nL: ...Rd4 Rxe5 ...Rxc4, bishops
//!   traded: 0; 0AzTR: Bxe7 ...Bxd1 Bxd8, no fire on Bxe7: 0, not 9; 67
//!   dev fires, and 22 more by the fire-less capture, 16 of them trades to
//!   0, 6 now below 0 by a loss the line's end charges, such as a pawn the
//!   key move left, and 1 to 3 off). So for a payoff's capture (09d1o:
//!   ...d3 hits the queen, Rxe5 ...dxc2+ Kxc2 ...Bxe5: 4, not 13; 56 dev
//!   gains, each down; of 20 read, 19 closer), and where we take their man
//!   back later, that capture another tactic's (02qd6: Bxf6 ...Bxf3 Bxd8
//!   ...Rxd8 gxf3: 0, and gxf3's bishop 3; 8 dev gains, each down). Where
//!   their capture took back a capture of ours no fire names (a grab
//!   before the trade), the capture counts from before that grab: the
//!   trade nets what the grab took (Lichess 08AfH: ...Qxe3+ Rxe3 ...Bxh6,
//!   the bishop: 3, not 9; 01aTs: Qxd4 ...Rxd4 gxh4: 3; 54 dev gains, each
//!   down, each line's gains now summing to its net).
//! - **A grab in answer to a quiet threat.** Where our capture carries out
//!   the threat of our quiet move before it, a move no fire wins or gives
//!   material on, and the opponent answered that move by taking a man of
//!   ours (not taking back), the capture counts from before the quiet
//!   move: the grab is charged (Lichess 04e0U: e5 attacks the queen,
//!   ...Rxc1, exf6: 4, not 9; 08RC5: Bd2 ...Nxe2 Bxb4, a queen trade: 0),
//!   also where the quiet move lined up on the man behind the one that
//!   grabbed (082g9: Qc8, ...Rxc7 Qxe6: 4, not 9; 6 dev gains, each down).
//! - A man of ours that hung before the key move (attacked and undefended,
//!   not hit by the setup move's piece) and that the opponent takes
//!   between the fire's move and its capture is the puzzle's premise, as
//!   at the line's end, unless it plays a part in the fire (Lichess 01FCo:
//!   Nc6+ forks, ...Kxb7 takes the pawn the king attacked already, Nxe5:
//!   6, not 5; 09X01: the rook that gives the check is the tactic's price;
//!   30 dev gains, each up).
//! - **A line that mates** nets nothing: the mate is the point, and every
//!   fire's `gain` on it is null, what it takes or gives on the way
//!   included (Lichess 07kQI: ...Rxd1+ Qe1 ...Rxe1#, no rook won; 054S8:
//!   ...Qxf2+ Rxf2 Rxe1+ Rf1 Rexf1#; 06vSn: Rxh3+ Nh4 Rxh4+, a spite
//!   block). Until 2026-12-05 a capture on the way kept its gain where
//!   the line took more than it gave: 192 dev gains, 145 of them a
//!   capture with check two plies before the mate (a step of the mate,
//!   which a coach does not count as material won).
//! - The men to win never include their king; our king may stand where
//!   it took one (Kxf1 after ...Qxf1+ nets the exchange, not the queen).
//! - A sacrifice's `gain` is what its move gives up with the answer, below
//!   zero, and where the answer captures, the captures that follow on its
//!   square, unless another tactic of ours takes there (Lichess 00vf5:
//!   Ndb5 axb5 Nxb5, -2): a later tactic that wins it back nets its own
//!   win, and a line's gains sum to its net (029wQ: -6, then the fork's
//!   10, the queen and a pawn its knight then hits). A tactic whose man
//!   only a later sacrifice takes nets 0 (059XJ: Qd8+ forks the knight
//!   Qxf6+ gives the queen for). A sacrifice that
//!   takes back where they just took counts from before their capture
//!   (01Isj: ...Rxe1+ Rxe1 leaves the b6 bishop: -3, not 2).
//!   What a sacrifice gives up is charged to it alone: another fire of its
//!   move whose exchange comes out below zero nets what it wins besides
//!   (06tA5: Rb7 gives the rook, and the deflection wins the d6 pawn: 1,
//!   not -4; 46 dev fires, each up; judged, seed 4513: 15 of 15 read
//!   closer, 12 right as they stand). One whose exchange wins it back nets
//!   the balance (the pin on the same move: 5): charging the give-up to no
//!   co-fire would count a later tactic's payoff twice (the pin 10 beside
//!   the fork's 9), so the two readings meet at 0, and five dev moves show
//!   both (00v6q: the fork 2, the counterThreat 5). But where the answer
//!   takes the moving man itself and no other tactic wins before the
//!   fire's capture, the win is the fire's alone, and it nets it whole, so
//!   the line's gains sum to its net (06WdM: ...Nf3+ Rxf3 gives the knight,
//!   -3, and the fork's ...Re1+ Qxe1 ...Qxe1+ wins the queen for the rook:
//!   4, not 1; 5 dev gains, each up). Left: a co-fire whose
//!   exchange runs into a later tactic's sacrifice stays below zero
//!   (08qdE, 09fDR: -2; 01U1t's shape).
//! - **The man the move takes.** Where another fire of the move names the
//!   man its capture takes (a hanging piece) and the man that took keeps
//!   it (not taken back at once, nor later without our taking back, nor en
//!   prise as the line ends, unless it makes the fire's capture on our
//!   next move, the answer taking nothing, and falls in that exchange), a
//!   fire naming other men counts from
//!   after the move: the capture is the other fire's (Lichess 09KlA: gxh6
//!   takes the queen and unmasks the rook on a rook that is traded: 0, not
//!   9; 08i3m: Nxe7+ takes the pawn and forks, Nxf5 gxf5: the fork 6).
//!   So where the move is the capture that collects an earlier fire's man
//!   (not for a payoff: 01VBW, Nxf8+ takes the rook Ng6+ forked, and its
//!   discovery nets the queen, 4, not 9), or goes on with a run an earlier
//!   fire started by taking a man it names (07gRJ: ...Nxh3+ Bxh3 ...Qxh3,
//!   and the double attack of ...Qxh3 nets what follows, 4, not 5).
//! - A fire whose man the line never takes keeps its detector's stake (the
//!   hung or trapped piece's value): what it threatens to win, the line
//!   stopping before it falls.
//!   - Where the threat comes to nothing by the line's end (its men,
//!     followed as they move, no longer attacked; or one man that can
//!     step to a square we do not attack, or, in check, an answer after
//!     which nothing of theirs is en prise: 0BuRD ...exf2+ unmasks the
//!     queen on the e1 rook, and Kxf2 guards it), it wins what the best
//!     escape leaves us (a man that takes a man of ours on a square we
//!     attack trades itself: 01gA2, ...Rh8 shuts the h7 queen in, Qxh8+
//!     Qxh8: 4, not 9; where our move threatens other men
//!     too, the least our captures net over the man's escapes and the
//!     captures of their other threatened men: 0BJDT, d5 unmasks the
//!     bishop on the queen and hits the e6 bishop, ...Qc7 dxe6 fxe6: 2,
//!     not 0; 02fRr, ...Qxb3
//!     guards the knight: 0; where it threatens two or more of its men,
//!     the least our captures net over letting it be, their moves and the
//!     captures of the men that hit them, guarded men taken too: 06ZIT,
//!     Ng3 hits the queen and two bishops, ...Qc7 Nxf5: 3, not 9), and what its
//!     move took, with the answer that took a man of ours (0 where another
//!     fire of the move wins or gives material, where the move takes back
//!     what the opponent just took, or where the man that took falls
//!     later). Lichess 083dK: the queen dxe5
//!     unmasks takes the pawn: 0; 04Dbs: Bb4 unmasks the queen on the d4
//!     bishop, which may step away as the line ends: 0, the fork wins the
//!     queen; 09YuP: Bxe4 takes the knight, and the queen it unmasks on
//!     steps away: 3. A threat only a search would see through, as 0AoZa's,
//!     is read as 0 too.
//!   - Where one of its men, followed, took a man of ours (it met the
//!     threat by trading) and the line ends with our check, the line's
//!     balance from before the move, finished by the capture search, is
//!     the gain (Lichess 07b7A: Nxg5 unmasks the g6 queen on the c2
//!     queen, which takes it; Nxf3+, and hxg6 is to come: 3, not 9).
//!
//! Judged by hand (issue 34), each value read against the line and
//! Stockfish's continuation from its end:
//! - 25 random dev fires (seed 11): 24 right by the definition; the wrong
//!   one, a decoy in a mate in 2, fixed since.
//! - After the check in between and the men left en prise since the key
//!   move (25 random dev fires with a gain, Python `random.Random(3471)`
//!   over the rows sorted by puzzle, ply and label): 21 right, 0 wrong, 4
//!   right by the definition where a coach would count otherwise: our own
//!   new captures in the end search cancel the opponent's recapture (01Dmj,
//!   0BxG7: +1 each), a fork that wins back our own queen sacrifice counts
//!   the queen (029wQ: 9 where the line nets 3; 10 today, with a pawn
//!   after the line), and an opponent's
//!   desperado on another square is drawn into the exchange (0COYv: +2).
//!   Of the 428 dev gains the en-prise change moved, 10 read: 7 closer, 3
//!   unclear, none worse. Since then our side only answers at the line's
//!   end (01Dmj 2, 0BxG7 6) and a desperado elsewhere is the next fire's
//!   (0COYv 5); of 16 random values that change moved, 12 read closer,
//!   3 farther (mended since: 04HSi, 0A74b; 09VM8 left), 1 the same.
//! - 2026-12-03's later rounds (25 each, the same sampling; right / wrong
//!   / debatable): seed 3527 22/1/2, 3541 20/2/3, 3557 23/0/2, 3563
//!   21/1/3.
//! - 2026-12-04, each round on the code of its day's point, the shapes it
//!   found mended before the next: 3581 22/1/2 (04e0U: a grab in answer to
//!   a quiet threat; 0ASS7: a spite block before mate); 3593 23/0/2
//!   (054S8: won on the way to a mate the line gives for; 033zG); 3607
//!   23/1/1 (08B8I: a capture another fire takes back; 08lNe); 3617 22/3/0
//!   (059XJ: a man only a sacrifice takes; 0BuRD: a threat the check's
//!   answer meets; 057Rd: a promotion at the line's end, left); and on
//!   the day's last code, 3631: 22/2/1. Left: the end search does not see
//!   captures after a quiet king move out of check (07X4I: Ke2 hits the
//!   d1 rook and the f3 knight, 5 where a coach says 2); a discovered
//!   attack on a queen that attacks ours back keeps its stake (07b7A: 9,
//!   the line nets 3); a sacrifice's gain stops before our retake on its
//!   square (00vf5: -3, a coach says -2). Of the changed values read (15,
//!   15 and 10, seeds 3583, 3597, 3611): 37 closer, 3 the same, none
//!   farther.
//! - 2026-12-04's later rounds, the same sampling: 3643 22/2/1 on the
//!   morning's last code (02wgI: a trade on two squares; 01U1t: an exchange
//!   running into another fire's capture, left: stopping it there was
//!   tried twice and made other lines worse); after the sacrifice's run,
//!   the traded threat and the trades, 3659 23/0/2 and 3671 20/1/4 (094oI:
//!   a man lost after the exchange is over, left: charging the line's end
//!   to the last fire made 9 of 12 read worse; 089nL, mended; 05jMu: a
//!   payoff counts its own capture, now said in the schema); after the
//!   man that took falling in the fire's own exchange, 3691 23/1/1 and 3701
//!   24/0/1 (06etG: a man the setup move put en prise, mended); on the
//!   final code, 3733 24/1/0 and 3739 22/2/1. Left there: a quiet check,
//!   fork or discovery just past the line's end that wins our capture back
//!   (0ALii: 8, a coach says 2; about 40 fires), which a captures-only
//!   search cannot see; a man the setup move hit charged twice where the
//!   opponent gives a piece up (08R86, 2 fires); a desperado read as
//!   opening a line (0AxI1). Changed values read: 13 of 16 closer (seed
//!   3677), 14 of 14 (3707), and for the setup move's hits 9 of 15 (3747;
//!   the 6 farther are men immune for a mate, a promotion or a pin, as the
//!   rule on men en prise before the key move warns).
//! - After the forking check at the line's end (0ALii now 2), and gains for
//!   discovered checks and interference, 25 random dev fires (seed 3761):
//!   23 right, 1 wrong, 1 debatable. Wrong: 07Dpg, the end search lets the
//!   opponent promote with a capture that walks into a mate in 2 (-4, a
//!   coach says 7): only the forking check asks whether we mate. Debatable:
//!   09VQK, the exchange running into another fire's capture (01U1t's
//!   shape). The 105 new discoveredAttack gains (seed 4201): 14 of 15
//!   right (06Pog: the knight sacrificed on its square counted again, -2
//!   for +1; mended on 2026-12-06, a run that starts with their capture of
//!   the sacrificed man counts from after it). The 91 new interference
//!   gains (seed 4301): 15 of 15 right; of the 9 at 0 or below, 3 wrong and 4 debatable (an opponent's
//!   capture the next fire already counts; a run into our own sacrifice).
//! - After the end search's mate-in-one test (57 dev gains up; of the 14
//!   on the key move, read against Stockfish's continuation from the
//!   line's end, 11 closer, 2 the same, 1 farther), 25 random dev fires
//!   (seed 3797): 24 right, 1 wrong (07xhH: a pawn the setup move hit,
//!   charged by the end search to two fires whose exchanges both reach it;
//!   3 dev lines). After a sacrifice's give-up went to it alone, seed 3803:
//!   24 right, 1 wrong (0A9YO: the capture search lets us take a man left
//!   hanging after the opponent answers our check, ...Qxa1, where Qxb8+
//!   then wins more; a helper's Stockfish pass puts 30 to 60 dev fires one
//!   to three too high by such grabs, and no simple rule tried, refusing
//!   grabs that allow a capture with check or of a man the checker newly
//!   hits, tells them from the sound ones). Left as well: a capture into a
//!   mate in two (07Dpg; 11 of 1,315 end searches that take 2 or more),
//!   and wins of other fires on the way to a later capture counted again
//!   (01sqg: the trap 7, a coach 4; about 30 dev fires, and taking off the
//!   other fires' gains overshoots where their exchanges reach ours).
//! - On the same final code, seed 3821: 20 right, 4 wrong, 1 debatable,
//!   each off by 1 to 3, all in the end search's handling of checks: a
//!   check on its last ply credited (05Vzs: 7, a coach 6), a side in check
//!   inside the search free to stop (040Jq: 2 for 1), a king counted as a
//!   recapturer where the capture opened a file onto it (0CKgM: 5 for 2),
//!   and a man charged under the setup-move rule that cannot be taken
//!   (077jO: -1 for 1). Next: answer checks inside the search by legal
//!   moves, not attack maps.
//! - After the end search answered checks by legal moves and a king
//!   guarded only what it may take back (247 dev gains, 88 up, 159 down;
//!   05Vzs, 040Jq and 0CKgM mended, 0A9YO 3 -> 1 as a coach says): of
//!   25 changed (seed 5101), 14 closer and 11 farther when men taken after
//!   the opponent's forced answer to our check count as the next tactic's,
//!   20 and 5 when they count, as 0A9YO's coach counts them; 11 right
//!   against 9 before. 25 random dev fires (seed 3863): 24 right, 1 wrong
//!   (0AzTR: queens traded on two squares after a capture with no fire,
//!   9; mended, 22 dev fires, of which a second judge read 19 closer and 3
//!   farther: the capture of theirs took back an earlier capture of ours,
//!   mended too). Seed 3877, before that last mending: 22 right, 1 wrong,
//!   2 debatable. Wrong: 07GSL, 4 for 3: after our check is answered, our
//!   capture on the search's last ply is credited whole (...Kc5 guards
//!   b6). Tried: a quiet answer to a check taking no ply (75 dev gains
//!   moved, 0A9YO back to 3) and no grabs after the measured side's quiet
//!   answer (0A9YO 2); both dropped. Debatable: 08dW1 (a trade against
//!   the setup move's capture, which Koga never counts from) and 01M7o
//!   (the forced answer after the line's mate threat loses the queen).
//!   With the take-back mended, seed 3889: 21 right, 1 wrong, 3
//!   debatable. Wrong: 07AfS, 7 for 6: the end search takes a pawn that
//!   never falls, as our recapture attacks a bishop that must move first
//!   (a threat, which a captures-only search cannot see). Debatable: a
//!   pawn that falls later counted or not (04Xuc, 04c7g), and a pawn
//!   grabbed after our quiet move that was lost already (07CVg). The
//!   take-back's 7 changed fires read 5 closer, 2 farther (05RTW, 0Ar3q:
//!   a new attack, not a take-back; mended, and those 2 are as before).
//! - On that code, seed 3907: 23 right, 2 wrong. 0BJDT, 0 for 2 or
//!   more: d5 unmasks a bishop on the queen and hits the e6 bishop, and
//!   the queen's escape was read as the threat coming to nothing (mended:
//!   what the escape leaves; of the 20 dev gains it moved, all
//!   discoveredAttack, a judge read 18 closer, 1 the same, 1 farther:
//!   007tv, a block the escapes leave out). 06KBh, 4 for 5: the g5 pawn
//!   the setup move's rook hits, charged by the setup-move rule (06etG's
//!   judge wanted it charged, this one not; the judge's brief misstated the
//!   rule). A capture on the search's last ply then counted by its
//!   exchange (07GSL mended): of its 103 changed dev gains, 25 read, 17
//!   closer, 8 farther (a quiet move deciding: 03kpk, 09LsW, 02Uy9; a
//!   capture into mate, 09rmt; and 0A9YO, 1 -> 2 against a coach's 1).
//!   With both, seed 3919: 21 right, 3 wrong, 1 debatable. Wrong: 0CIBR,
//!   2 for 6 (...Qxg2+ hits a rook no answer to the check saves, a threat
//!   a captures-only search cannot see); 00kHM and 06ZIT, 9 for 4 and 3
//!   (a threat on a queen at the line's end kept whole where the queen
//!   may take its attacker, or two men are hit at once). Tried: the escape
//!   read over every threatened man's moves and captures (17 dev gains;
//!   06ZIT and 00kHM to 0, since the end search leaves alone the men that
//!   stood en prise before the key move): dropped. Debatable: 0CJ7F (a
//!   pawn won back past the line's end).
//!   All samples since the bar was set: 360 of 400 right (90.0 %).
//! - 2026-12-04, evening: the escape of several men, the piece only the
//!   king guards, then seed 3931: 23 right, 2 wrong (06WdM, a sacrifice's
//!   co-fire charged the give-up again, mended; 02Ojk, judged 6 for 7, but
//!   the extra pawn is f5, which Qxf5 wins: debatable). The co-fire rule,
//!   the resumed exchange, the grab before a trade and after a line-up,
//!   then seed 3943: 24 right, 1 wrong (01FCo: a pawn that hung before the
//!   key move, taken on the way: mended). The premise on the way, then
//!   seed 3967: 20 right, 4 wrong, 1 debatable. Wrong: 00DdW (a pawn that
//!   hits a pinned knight as the line ends), 01Ox8 (the end search lets
//!   the opponent take, past its first capture, a pawn that hung before
//!   the key move; barring it moved 52 dev gains both ways: left), 08Erp
//!   (a man the setup move hit, lost after a forced king move); 08ct3,
//!   judged 5 for 6, where Stockfish wins the d4 pawn as Koga counts. The
//!   changed values read against the old (20 of 77, seed 4001): 18 closer,
//!   2 farther (01fsb, 0AddK); and 15 of the 35 the premise moved (seed
//!   4003): 11 closer, 4 farther (two the setup move's piece hit, mended;
//!   two a retake of the setup move's capture, counted as the rules say).
//!   On the final code, seed 3989: 21 right, 2 wrong, 2 debatable. Wrong:
//!   07b1u (the end search sums loose men the opponent cannot all take,
//!   our forcing answers aside: 3 for 4), 09d1o (a queen the setup move
//!   attacked, taken while we take theirs elsewhere: 13 for 4, no trade
//!   seen). Debatable: 07cv1, 07g2X (a pawn past the exchange).
//!   All samples since the bar was set: 448 of 500 (89.6 %). On the final
//!   code the four samples read 24, 25, 20 and 21 right (06WdM and 01FCo
//!   now give the judges' values; no other sampled value moved): 90 of 100.
//! - 2026-12-05: the payoff's trade (judge45: 19 of 20 changed read
//!   closer), their capture after their check, the trade whose man we take
//!   back later, the desperado after a quiet move (02370), the line's end
//!   after their check and our answer (judge52: 14 of 20 changed closer, 6
//!   farther: an end capture refuted by mate or by more lost, which a
//!   captures-only search cannot see). Six fresh rounds, read on the final
//!   code: seeds 4138 20, 4141 24, 4144 23, 4147 19, 4150 23, 4153 22 right
//!   (131 of 150); most of the rest are readings (a pawn past the line's
//!   end, which fire owns a later win) or a threat the search cannot see.

use std::cell::{Cell, OnceCell, RefCell};

use shakmaty::{attacks, Bitboard, Board, Chess, Color, EnPassantMode, Move, MoveList, Position, Rank, Role, Square};

use crate::board::{
    attacked_by, attacked_by_at, attackers, capture_leaves_king_safe, distance, escorted_pawn, forced_mate,
    least_valuable, least_valuable_legal_capture, legal_plain_move, mate_in_one, only_legal_move, piece_attacks,
    pins_of, pins_off_the_line, runaway_pawn, see, swap_turn, value, value_at, xray_defenders, Pin,
};
use crate::facts::{capture_square, captured_value};
use crate::fire::Fire;
use crate::inline_vec::InlineVec;
use crate::line::{Cursor, Line};
use crate::role::{RoleName, Roles};

/// The enemy men a fire names as there to be won, where they stand after
/// its move.
fn men_to_win(roles: &Roles) -> Bitboard {
    [RoleName::victim, RoleName::pinned, RoleName::behind, RoleName::targets]
        .into_iter()
        .fold(Bitboard::EMPTY, |men, role| men | roles.get(role))
}

/// The move that takes the most valuable of `men` (squares right after
/// `ply`) the line takes, the first such where two are worth the same:
/// `ply` itself where it captures there, or a later move of ours, the men
/// followed as the opponent moves them.
fn collecting_capture<'a>(ply: Cursor<'a>, men: Bitboard) -> Option<Cursor<'a>> {
    let taken = |at: Cursor, men: Bitboard| {
        let m = at.mv();
        (m.is_capture() && men.contains(capture_square(m))).then(|| captured_value(m))
    };
    let mut best = taken(ply, men).map(|value| (value, ply));
    let mut men = men;
    if best.is_some() {
        men.discard(capture_square(ply.mv()));
    }
    for at in ply.later() {
        if men.is_empty() {
            break;
        }
        if at.is_solver() {
            if let Some(value) = taken(at, men) {
                if best.is_none_or(|(most, _)| value > most) {
                    best = Some((value, at));
                }
                men.discard(capture_square(at.mv()));
            }
        } else {
            men = at.moves_along(men);
        }
    }
    best.map(|(_, at)| at)
}

/// Where the exchange a capture belongs to began: a capture that takes
/// back on the square where the opponent just captured or promoted
/// (itself perhaps taking back ours) is counted from the first move of
/// that run on the square, the key move's at the earliest (the setup move
/// is the puzzle's premise). A queen taken the move it was made is a pawn
/// won (Lichess 04Fg4: d1=Q+ Kxd8... the king takes a pawn, not a queen).
fn exchange_start(ply: Cursor) -> Cursor {
    let key = ply.line().key_ply;
    if !ply.mv().is_capture() {
        return ply;
    }
    ply.run_before().take_while(|at| at.index() >= key).last().unwrap_or(ply)
}

/// Where a capture of ours at `ply` answers one of theirs elsewhere, of a
/// man worth the same, that itself answered a quiet move of ours, a
/// capture on which a fire wins material, not a payoff (so that fire's
/// exchange runs through both; Lichess 01q7V: the fork's exchange stops
/// before ...Rxc6, which still wins the bishop back: 3), or a capture on
/// which no fire (`fired`) is: their capture, from before which the trade
/// is counted (Lichess 02wgI: Nxe5 wins the knight, ...Bxe2 Nxd7 trades
/// the queens on two squares: 0, not 9; 0AzTR: Bxe7 ...Bxd1 Bxd8, the
/// same). So for a payoff (09d1o: ...d3 Rxe5 ...dxc2+ Kxc2 ...Bxe5, the
/// queens traded and the rook won back: 4, not 13), and where we take
/// their man back later (02qd6: Bxf6 ...Bxf3 Bxd8 ...Rxd8 gxf3: the queens
/// traded, 0, and gxf3 the bishop's, not 9 and 3). Or, where theirs took
/// back such a capture of ours (not itself taking back one since the key
/// move), ours (08AfH: ...Qxe3+ Rxe3 ...Bxh6, the bishop: 3; 05mlq: Qxf2
/// takes back the setup move's rook, ...Nxf2 Rxd5: 5, less the pawn to
/// come).
fn trade_start(ply: Cursor, wins: u128, fired: u128) -> Option<Cursor> {
    let m = ply.mv();
    let theirs = ply
        .previous()
        .filter(|p| p.index() > ply.line().key_ply && m.is_capture() && p.mv().is_capture() && p.mv().to() != m.to())?;
    let ours =
        theirs.previous().filter(|ours| !ours.mv().is_capture() || among(wins, *ours) || !among(fired, *ours))?;
    let square = theirs.mv().to();
    // Where it answers a capture, a late take-back of theirs is no answer:
    // ours takes a man left loose (after a quiet move it is their answer
    // to its threat, 089nL).
    let retakes = ours.mv().is_capture() && takes_back_late(theirs);
    let even = captured_value(theirs.mv()) == captured_value(m);
    // Where their capture takes back a capture of ours no fire names, the
    // trade is counted from before ours: what it took is the trade's.
    if even
        && ours.mv().is_capture()
        && ours.mv().to() == square
        && !among(fired, ours)
        && exchange_start(ours).index() == ours.index()
    {
        return Some(ours);
    }
    (even && continues_the_exchange(theirs) && ours.mv().to() != square && !retakes).then_some(theirs)
}

/// Whether their capture `theirs` takes back, late, a man of ours that
/// captured on its square since the key move and stood there since, with a
/// man that stood ready since: that exchange was over (03E8w: Bxd5
/// ...Rxf1+ Rxf1 ...exd5, and Bxe7 takes a loose bishop: 3). Not where a
/// move of theirs since brought the man or opened its line (05RTW: e5, then
/// exd6; 0Ar3q: Bxh7 opens the d-file for Qxd4).
fn takes_back_late(theirs: Cursor) -> bool {
    let (square, Some(from)) = (theirs.mv().to(), theirs.mv().from()) else { return false };
    let line_of_fire = attacks::between(from, square).with(from);
    // The last move since the key move that touched the square, or that
    // brought their man or opened its line.
    std::iter::successors(theirs.previous(), |at| at.previous())
        .take_while(|at| at.index() >= theirs.line().key_ply)
        .find(|at| {
            let m = at.mv();
            m.to() == square
                || m.from() == Some(square)
                || (!at.is_solver() && (m.to() == from || m.from().is_some_and(|f| line_of_fire.contains(f))))
        })
        .is_some_and(|at| at.is_solver() && at.mv().is_capture() && at.mv().to() == square)
}

/// The material balance once the exchange that `capture` opens is over:
/// the captures and promotions that follow it in the line, the opponent's
/// capture back after a check in between ([`resumed_after_a_check`]), and
/// where `through_checks` holds the plies other tactics claim, every check
/// of ours and its answer up to such a ply (Lichess 08hfz: Rxg6+ Qxg6
/// Qxg6+ wins the queen, the second fork's rook is its own); where the
/// line stops with the other side to answer, or goes on with a desperado
/// of theirs ([`continues_the_exchange`]), what that side still wins by
/// captures ([`best_captures`]) is taken off, of the men left hanging
/// since `premise` (the position before the key move).
fn balance_after_exchange(
    capture: Cursor,
    through_checks: Option<u128>,
    claimed: u128,
    named_takes: u128,
    premise: &Chess,
    end: &LineEnd,
    balances: &[i32],
) -> i32 {
    // An opponent's capture elsewhere that another tactic of ours takes
    // back at once, naming the man it takes, is that tactic's trade, cut
    // as a desperado's is (Lichess 08B8I: gxf5 wins the bishop; ...Qxf6
    // Rxf6 is the next fire's: 3, not 9). Not where the tactic of the
    // retake names other men: the trade is then no fire's, and belongs to
    // the exchange (0758S: Bxf6 wins the queen, ...Nxg3 takes ours, and
    // Rxg3's pin names g7: 3, not 9).
    let claimed_at = |at: Cursor| among(claimed, at);
    let retaken_by_another = |at: Cursor| {
        at.previous().is_some_and(|ours| ours.mv().to() != at.mv().to())
            && at.reply().is_some_and(|r| {
                r.mv().is_capture() && r.mv().to() == at.mv().to() && claimed_at(r) && among(named_takes, r)
            })
    };
    // A promotion is material like a capture: the pawn a capture let
    // through belongs to the exchange, unless another tactic of ours takes
    // the new man at once, naming it, as a capture elsewhere would be
    // (Lichess 05Shd: ...Nxf2, a8=Q+ ...Kxa8 is the next fire's: the fork
    // nets 2, not -6). A check of theirs starts something else (Lichess
    // 0BNSS: f6+ Nxf6 Qxe5 wins the pawn back, and ...Bc6+ starts the next
    // combination).
    // Our retake of their capture on its square, where the tactic of the
    // retake names other men, is no other tactic's trade: it goes on.
    let unnamed_retake = |at: &Cursor| {
        at.previous().is_some_and(|theirs| theirs.mv().is_capture() && theirs.mv().to() == at.mv().to())
            && !among(named_takes, *at)
    };
    let goes_on = |at: &Cursor| match through_checks {
        Some(claimed) if at.is_solver() && among(claimed, *at) && !unnamed_retake(at) => false,
        _ => {
            (at.mv().is_capture() && (at.is_solver() || (continues_the_exchange(*at) && !retaken_by_another(*at))))
                || (at.mv().is_promotion() && !retaken_by_another(*at))
                || (through_checks.is_some() && if at.is_solver() { at.gives_check() } else { at.in_check() })
        }
    };
    let mut last = capture;
    loop {
        if let Some(next) = last.reply().filter(goes_on) {
            last = next;
        } else if let Some(end) = check_answered_as_the_line_ends(last) {
            // The line's end, searched from there.
            last = end;
            break;
        } else if let Some(resumed) = resumed_after_a_check(last).or_else(|| taken_after_their_check(last)) {
            last = resumed;
            // Where another tactic of ours takes next, what it takes is its
            // own (Lichess 0AfWu: ...gxf4 takes the rook, Qc3+ ...Kg8 traps
            // the f8 knight, and exf4 ...Qxf8: the rook for the pawn, 4).
            if last.reply().is_some_and(claimed_at) {
                break;
            }
        } else {
            break;
        }
    }
    let solver = capture.line().solver();
    let settled = balances[last.index() + 1];
    // A desperado ends the exchange as the line's end would: what our last
    // capture left en prise is still taken, the desperado's man aside, the
    // next fire's (Lichess 0A74b: ...Bxd1 takes the queen, Bxf7+ Kxf7 is
    // a trade of its own, and Rxd1 takes the bishop back).
    let desperado = last.reply().filter(|r| r.mv().is_capture() && !r.is_solver());
    if last.reply().is_some() && desperado.is_none() {
        return settled;
    }
    let hits = &end.hits;
    // Several fires' exchanges often end on the same move against the same
    // premise: searched once.
    let key = (last.index(), std::ptr::from_ref(premise) as usize);
    let known = end.pending.borrow().iter().find(|&&(at, from, _)| (at, from) == key).map(|&(.., net)| net);
    // Where we take the desperado back with check, its side must answer
    // that check before it may take what our capture left en prise
    // (Lichess 01uDg: Nxf8, ...Nxf6 opens the queen on f8, and Qxf6+
    // leaves no time to take it: 5, not 2).
    let checked = desperado.and_then(|d| d.reply()).filter(|r| r.gives_check());
    let pending = known.unwrap_or_else(|| match desperado.and_then(|d| d.mv().from()) {
        // The retaking man is the next fire's.
        Some(_) if let Some(retake) = checked => {
            let (pos, square) = (retake.after(), retake.mv().to());
            let attacks = attacked_by(pos.board(), pos.turn());
            let targets =
                first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks).without(square);
            best_answer_to_check(pos, targets, premise).max(0)
        }
        Some(from) if !last.gives_check() => {
            let mut board = last.after().board().clone();
            board.discard_piece_at(from);
            best_captures_on(&board, last.after().turn(), last.mv().to(), premise, hits)
        }
        _ => nets_after(last, premise, hits),
    });
    if known.is_none() {
        end.pending.borrow_mut().push((key.0, key.1, pending));
    }
    if last.after().turn() == solver {
        settled + pending
    } else {
        settled - pending
    }
}

/// What the side to move nets after `last`, where an exchange or the line
/// ends: by captures ([`best_captures`]), or, not in check, by a forking
/// check instead; where that is nothing and the side to move is the
/// opponent, less what it cannot save of its loose men ([`lost_loose_men`],
/// meeting our mate threat where there is one). At the line's end, a
/// queening race the solver wins ([`queening_race`]), or a pawn of its that
/// queens next move ([`queens_next`]), adds a queen less its pawn to the
/// captures.
fn nets_after(last: Cursor, premise: &Chess, hits: &SetupHits) -> i32 {
    let (pos, square) = (last.after(), last.mv().to());
    if pos.is_check() {
        return best_captures(pos, square, premise, hits, false);
    }
    // At the line's end, a capture there is answered by a forking check too.
    let forks = last.reply().is_none();
    // A queening race the solver wins, or a pawn of the solver's that queens
    // next move whatever they play, with the opponent to move (as a
    // puzzle's line ends): a queen less its pawn, besides what the opponent
    // takes meanwhile, in place of the loose men's count. A race the solver
    // would lose is read as the square rule's miss: a puzzle's line wins.
    let solver = last.line().solver();
    if forks
        && pos.turn() != solver
        && (queening_race(pos, premise) == Some(solver) || (queens_next(pos) && !queens_anyway(premise, solver)))
    {
        return best_captures(pos, square, premise, hits, forks) - (value(Role::Queen) - value(Role::Pawn));
    }
    match best_captures(pos, square, premise, hits, forks).max(forking_check(pos, premise, false, false)) {
        0 if pos.turn() != solver => -lost_loose_men(pos, premise),
        nets => nets,
    }
}

/// Whether the side not to move queens a pawn on its next move whatever the
/// side to move plays, pieces on the board or not: a pawn of its on the
/// seventh rank, before an empty square that no man of theirs covers, where
/// after every legal answer (not a check) it may still step there, the queen
/// stands unattacked and they have no mate in one (Lichess 00Uo9: fxe7, and
/// nothing of Black's reaches e8). None where a pawn of theirs is a step or
/// two from queening, nor where they have no legal answer: stalemate.
fn queens_next(pos: &Chess) -> bool {
    let (board, them) = (pos.board(), pos.turn());
    let us = !them;
    let ready = ready_to_queen(board, us);
    // A pawn of theirs a step or two from queening would queen after ours
    // (Lichess 02UTq: ...d2, b8=Q d1=Q): a race, not a queen won.
    let near = Bitboard::from_rank(them.fold_wb(Rank::Sixth, Rank::Third))
        | Bitboard::from_rank(them.fold_wb(Rank::Seventh, Rank::Second));
    if ready.is_empty() || (board.by_color(them) & board.pawns() & near).any() {
        return false;
    }
    let answers = pos.legal_moves();
    !answers.is_empty()
        && ready.into_iter().any(|pawn| {
            let Some(queening) = pawn.offset(us.fold_wb(8, -8)) else { return false };
            answers.iter().all(|&answer| {
                let mut after = pos.clone();
                after.play_unchecked(answer);
                // Legal after the answer: not taken, blocked, or pinned to
                // our king off the file.
                let Some(promotion) =
                    (!after.is_check()).then(|| legal_plain_move(&after, pawn, queening, Some(Role::Queen))).flatten()
                else {
                    return false;
                };
                after.play_unchecked(promotion);
                attackers(after.board(), queening, them, after.board().occupied()).is_empty()
                    && mate_in_one(&after, Bitboard::EMPTY).is_none()
            })
        })
}

/// Whether the solver, to move in the premise, queened a pawn anyway: one
/// ready to queen, or, in a pawn ending, one no king could catch. A pawn
/// that queens after the line then is no part of the tactic (convention
/// 1: a man we could take all along; Lichess 07379's a-pawn, 09Z76's
/// f-pawn, both outside the enemy king's square before the key move).
fn queens_anyway(premise: &Chess, solver: Color) -> bool {
    let board = premise.board();
    ready_to_queen(board, solver).any()
        || (board.occupied() == board.kings() | board.pawns() && runaway_pawn(board, solver, premise.turn()).is_some())
}

/// The pawns of `us` on their seventh rank before an empty square that no
/// man of the other side attacks.
fn ready_to_queen(board: &Board, us: Color) -> Bitboard {
    let seventh = board.by_color(us) & board.pawns() & Bitboard::from_rank(us.fold_wb(Rank::Seventh, Rank::Second));
    seventh
        .into_iter()
        .filter(|&pawn| {
            pawn.offset(us.fold_wb(8, -8)).is_some_and(|queening| {
                !board.occupied().contains(queening)
                    && attackers(board, queening, !us, board.occupied().without(pawn)).is_empty()
            })
        })
        .collect()
}

/// The side that queens a pawn no king can catch ([`runaway_pawn`]), where
/// the line ends in a pawn ending and the race stood otherwise in the
/// premise (Lichess 02D9k: ...gxh5, and White's king on a4 is far outside
/// the h-pawn's square). Where both sides' pawns run, the first to queen
/// wins the race only where its new queen guards the other's queening
/// square and the other's king does not (0CFUA: ...a1=Q covers h8); else
/// the two queens cancel. None where the loser has a pawn its king escorts
/// ([`escorted_pawn`]), or one may be taken en passant.
fn queening_race(pos: &Chess, premise: &Chess) -> Option<Color> {
    fn race(pos: &Chess) -> Option<Color> {
        let (board, turn) = (pos.board(), pos.turn());
        if board.occupied() != board.kings() | board.pawns() || pos.ep_square(EnPassantMode::Legal).is_some() {
            return None;
        }
        let winner = match (runaway_pawn(board, Color::White, turn), runaway_pawn(board, Color::Black, turn)) {
            (None, None) => return None,
            (Some(_), None) => Color::White,
            (None, Some(_)) => Color::Black,
            (Some(white), Some(black)) => {
                let (first, (pawn, queening, _), (other_pawn, other_queening, _)) =
                    if white.2 < black.2 { (Color::White, white, black) } else { (Color::Black, black, white) };
                let occupied = board.occupied().without(pawn).without(other_pawn);
                let guarded = board.king_of(!first).is_some_and(|king| distance(king, other_queening) <= 1);
                if guarded || !attacks::queen_attacks(queening, occupied).contains(other_queening) {
                    return None;
                }
                first
            }
        };
        (!escorted_pawn(board, !winner)).then_some(winner)
    }
    let winner = race(pos)?;
    (race(premise) != Some(winner)).then_some(winner)
}

/// What the side to move (not in check) loses of its men that the line
/// left undefended under our attack, pieces a lesser man of ours hits
/// (for the difference), or men we hit more often than they guard them
/// (for what the static exchange wins: Lichess 04aWV, b4 hit by bishop and
/// rook, guarded by a knight), not en prise before the key move, by
/// bitboards alone: the least, over its answers, of the most it must still
/// leave.
/// An answer saves a man where the man steps to a square it stands safe on
/// (one we do not hit, or one they guard that only men worth as much as it
/// hit, no more often than they guard it; else it loses what the exchange
/// there wins us), or where a man of theirs, standing safe itself, takes
/// its only attacker, steps between, or guards it against attackers worth
/// as much; so two men that no one answer saves lose the lesser (Lichess
/// 037nc: ...Rxe2 hits b2 and f2). Nothing is lost where the side can give
/// check with a man that stands safe (a check that gives the checker away
/// saves nothing: 01E0R's ...Qxe3+; and it leaves another loose man
/// beside our king that none of theirs then guards, which the king takes
/// in answer: 09TiY's ...Bf4+ Kxg4; nor does a spite check, which our king
/// steps off while the threats stand: 07s3C's ...Rd2+), promote, take a
/// man of ours en prise
/// (not one whose only taker is pinned to its king: 0B9Ov) or start an
/// even trade (Lichess 044aV: ...Kxf3, and Kxh5 evens it; not
/// by a loose man pinned to its king, off the pin's line: 05Uxg), with
/// check or not, where a loose man trades itself or the man it takes hits
/// one of them (any other trade leaves the threats standing: 0BQgG's
/// cxb5 axb5 after ...Nxd3 forks the rooks; 07ohA's ...Bxc3+ bxc3), and
/// only for what we would rather take than take back: a loose man the
/// trade leaves hit, worth more than it took (04VV5: ...fxe4, and Qxd6
/// takes the rook). A loose man that takes a man of ours where it falls
/// in turn loses only its worth less what it took.
/// Where we threaten mate in one, their king has no free square and a man
/// is loose, only an answer that meets the mate saves anything, and the
/// man it moves loses what the exchange on its new square wins us (Lichess
/// 05ZTT).
/// (Not seen: an answer that hits a man of ours, Lichess 02lIm's ...Kb6,
/// 01YXn's Be7, 08VvA's ...Rg8; a rule for it read worse than none, as
/// most such counter-attacks are parried.)
fn lost_loose_men(pos: &Chess, premise: &Chess) -> i32 {
    let (board, them) = (pos.board(), pos.turn());
    let us = !them;
    let occupied = board.occupied();
    let (theirs, ours) = (board.by_color(them), board.by_color(us));
    let cheapest = |men: Bitboard| least_valuable(board, men).map_or(i32::MAX, |(_, role)| value(role));
    let (Some(our_king), Some(their_king)) = (board.king_of(us), board.king_of(them)) else { return 0 };
    // Their men pinned to their king, and the line each may keep to: its
    // pinner and the squares between.
    let snipers = (attacks::rook_attacks(their_king, Bitboard::EMPTY) & board.rooks_and_queens()
        | attacks::bishop_attacks(their_king, Bitboard::EMPTY) & board.bishops_and_queens())
        & ours;
    let pinned: Bitboard =
        snipers.into_iter().filter_map(|s| (attacks::between(their_king, s) & occupied).single_square()).collect();
    let pin_line = |from: Square| {
        snipers
            .into_iter()
            .find(|&s| attacks::between(their_king, s) & occupied == Bitboard::from_square(from))
            .map_or(Bitboard::FULL, |s| attacks::between(their_king, s).with(s))
    };
    // Of their men that attack `sq`, those that guard it against our men
    // `by`: not one pinned to their king off the line to it, where a man
    // other than its pinner hits `sq` (Lichess 03eUB: the f7 pawn, pinned by
    // the d5 bishop, does not guard g6 against the queen; 09LYf: the e2 rook
    // the c4 queen pins takes back on c2 once the queen has taken there).
    let guarding = |men: Bitboard, sq: Square, by: Bitboard| {
        if (men & pinned).is_empty() {
            return men;
        }
        men.into_iter()
            .filter(|&g| {
                let line = pin_line(g);
                !pinned.contains(g) || line.contains(sq) || (by & !line).is_empty()
            })
            .collect()
    };
    // What we win by taking each man of theirs we attack: all of it where
    // it is undefended, the static exchange where we hit it more often than
    // they guard it, else what a piece is worth over our cheapest taker
    // (Lichess 0AddK: the queen the e7 rook pins, 5 not 1). The counts come
    // first: most guarded men are hit no more often than guarded, and the
    // exchange is not worth playing out for them.
    let mut stakes = [0i32; 64];
    let mut exposed = Bitboard::EMPTY;
    let hit = attacked_by(board, us);
    for sq in theirs & !board.kings() & hit {
        let worth = value_at(board, sq);
        let by = attackers(board, sq, us, occupied);
        let guards = guarding(attackers(board, sq, them, occupied), sq, by);
        let stake = if guards.is_empty() {
            worth
        } else if by.count() > guards.count() {
            least_valuable(board, by).map_or(0, |(from, _)| see(board, from, sq, worth))
        } else if board.pawns().contains(sq) {
            0
        } else {
            worth - cheapest(by)
        };
        if stake > 0 {
            stakes[sq as usize] = stake;
            exposed.add(sq);
        }
    }
    if exposed.is_empty() {
        return 0;
    }
    // Where a man of theirs may go: along the pin where one pins it to its
    // king; a pawn two steps from its first rank (Lichess 001kG: ...b5
    // guards c4).
    let moves = |from: Square, role: Role| {
        let to = if role == Role::Pawn {
            let ahead = |sq: Square| sq.offset(them.fold_wb(8, -8)).filter(|&to| !occupied.contains(to));
            let mut to = attacks::pawn_attacks(them, from) & ours;
            if let Some(one) = ahead(from) {
                to.add(one);
                if let Some(two) = ahead(one).filter(|_| from.rank() == them.fold_wb(Rank::Second, Rank::Seventh)) {
                    to.add(two);
                }
            }
            to
        } else {
            piece_attacks(from, role.of(them), occupied) & !theirs
        };
        if !pinned.contains(from) {
            return to;
        }
        to & pin_line(from)
    };
    // Whether their man on `from`, which attacks `sq`, may take there: not
    // off the line of a pin to their king.
    let free_to = |from: Square, sq: Square| !pinned.contains(from) || pin_line(from).contains(sq);
    // The board once their man on `from` has stepped to `to`.
    let stepped = |from: Square, role: Role, to: Square| {
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, role.of(them));
        after
    };
    // What the man on `from` loses where it stands on `to`: nothing where
    // we do not hit it there, or where they guard it against men worth as
    // much and we hit it no more often than they guard it; else the
    // exchange where it pays us (Lichess 0BZrl: ...f3, guarded by e4, hit
    // by g2 and the e2 bishop, falls all the same; 0CZjr: ...Nf6 blocks the
    // queen's line to the h8 rook and costs 1 for it, not 5). None where it
    // does not stand there at all.
    let stands = |from: Square, role: Role, to: Square| {
        let rest = occupied.without(from);
        let by = attackers(board, to, us, rest);
        if by.is_empty() || value_at(board, to) >= value(role) {
            return Some(0);
        }
        let guards = guarding(attackers(board, to, them, rest), to, by);
        if role == Role::King || guards.is_empty() || cheapest(by) < value(role) {
            return None;
        }
        if by.count() <= guards.count() {
            return Some(0);
        }
        let after = stepped(from, role, to);
        Some(least_valuable(&after, by).map_or(0, |(taker, _)| see(&after, taker, to, value(role)).max(0)))
    };
    // What the loose man on `man` still loses once that move is played.
    let still_lost = |from: Square, role: Role, to: Square, man: Square| {
        let stake = stakes[man as usize];
        if from == man {
            return 0;
        }
        let after = occupied.without(from).with(to);
        let by = attackers(board, man, us, after).without(to);
        if by.is_empty() {
            return 0;
        }
        if cheapest(by) < value_at(board, man) {
            return stake;
        }
        let guard =
            if role == Role::Pawn { attacks::pawn_attacks(them, to) } else { piece_attacks(to, role.of(them), after) };
        let (hits, here) = (by.count(), guard.contains(man));
        // Their other guards are asked only where one more is wanted.
        let guards = if hits == 1 && here {
            1
        } else {
            guarding(attackers(board, man, them, after).without(from), man, by).count() + usize::from(here)
        };
        // Hit by men worth as much, and guarded: saved where it is guarded
        // as often as hit, else it loses what the exchange there pays us
        // (Lichess 04bsZ: Qh6 guards the g5 knight, which the e7 bishop and
        // the g1 rook hit, and still falls; 07SwC: ...b5 guards the pinned
        // c4 rook, hit twice, and Rxc4 bxc4 Qxc4+ nets a pawn, not the
        // rook). A slider on a line with the man may guard it through our
        // man that hits it (Lichess 004u0: ...R5e7 guards b7 behind the d7
        // queen).
        if guards >= hits {
            return 0;
        }
        if guards == 0
            && !(matches!(role, Role::Bishop | Role::Rook | Role::Queen)
                && piece_attacks(to, role.of(them), Bitboard::EMPTY).contains(man))
        {
            return stake;
        }
        let moved = stepped(from, role, to);
        least_valuable(&moved, by).map_or(0, |(taker, _)| see(&moved, taker, man, value_at(board, man)).clamp(0, stake))
    };
    let stake = |men: Bitboard| men.into_iter().map(|sq| stakes[sq as usize]).max().unwrap_or(0);
    // The most any of the loose `men` still loses once that move is played.
    let most_left = |from: Square, role: Role, to: Square, men: Bitboard| {
        men.into_iter().map(|man| still_lost(from, role, to, man)).max().unwrap_or(0)
    };
    // What a loose man gives up behind it by stepping off the line of one
    // of our sliders that pins it to a greater man (its king's pins keep it
    // on the line already): the exchange our slider then starts there
    // (Lichess 04sEF: after Qxe5 the d4 knight, hit twice and guarded by
    // the d8 queen alone, is pinned to it by the d1 rook, and a step away
    // loses the queen to Rxd8).
    let pin_of = |from: Square| {
        (!pinned.contains(from)).then(|| pins_of(board, from).find(|pin| !board.kings().contains(pin.behind))).flatten()
    };
    let behind_it = |pin: Option<Pin>, role: Role, to: Square| match pin {
        Some(pin) if !attacks::ray(pin.pinner, pin.behind).contains(to) => {
            see(&stepped(pin.pinned, role, to), pin.pinner, pin.behind, value_at(board, pin.behind)).max(0)
        }
        _ => 0,
    };
    // Whether their man on `from` stepping to `to` lets us mate in one: such
    // an answer saves nothing (Lichess 067RG: ...a5 guards b4, and Qd8#).
    // Asked last, of an answer that would save more than any before it.
    let allows_mate = |from: Square, role: Role, to: Square| {
        let promotion =
            (role == Role::Pawn && to.rank() == them.fold_wb(Rank::Eighth, Rank::First)).then_some(Role::Queen);
        let m = Move::Normal { role, from, capture: board.role_at(to), to, promotion };
        let mut after = pos.clone();
        after.play_unchecked(m);
        mate_in_one(&after, Bitboard::EMPTY).is_some()
    };
    let least_left = |loose: Bitboard| {
        let mut lost = stake(loose);
        let mut answer = |from: Square, role: Role, to: Bitboard| {
            let pin = if loose.contains(from) { pin_of(from) } else { None };
            for to in to {
                let left = |men: Bitboard| most_left(from, role, to, men);
                let leaves = if let Some(loss) = stands(from, role, to) {
                    let loss = loss.max(behind_it(pin, role, to));
                    left(loose).max(loss)
                } else if loose.contains(from) && ours.contains(to) {
                    // A loose man that takes a man of ours where it is taken
                    // in turn sells itself for what it takes (Lichess 02e7X:
                    // the trapped knight's ...Nxh2, Kxh2: 2, not 3).
                    left(loose.without(from)).max(value_at(board, from) - value_at(board, to))
                } else {
                    continue;
                };
                if leaves < lost && !allows_mate(from, role, to) {
                    lost = leaves;
                }
                if lost == 0 {
                    return true;
                }
            }
            false
        };
        // A loose man steps away (or takes) first: most often that is all.
        for from in loose {
            let Some(role) = board.role_at(from) else { continue };
            if answer(from, role, moves(from, role)) {
                return 0;
            }
        }
        // Then another man takes an attacker, steps between or guards.
        let (mut helps, mut guards) = (Bitboard::EMPTY, [Bitboard::EMPTY; 6]);
        for man in loose {
            let by = attackers(board, man, us, occupied);
            helps |= by;
            if let Some(only) = by.single_square() {
                helps |= attacks::between(only, man);
            }
            guards[0] |= attacks::pawn_attacks(us, man);
            for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                guards[role as usize - 1] |= piece_attacks(man, role.of(us), occupied);
            }
        }
        for from in theirs & !loose {
            let Some(role) = board.role_at(from) else { continue };
            if answer(from, role, moves(from, role) & (helps | guards[role as usize - 1])) {
                return 0;
            }
        }
        lost
    };
    let loose = exposed & !won_by_taking(premise.board(), us, exposed);
    if loose.is_empty() {
        return 0;
    }
    // Where we threaten mate in one, only a move that meets it may save
    // anything: the least such a move leaves, of the loose men and of the
    // man it moves, which loses what the exchange on its new square pays
    // us, less what it took (Lichess 08U8Z: Qh8# is threatened, and ...Qxe5
    // or ...f6 gives the queen for the bishop that hits it; 05ZTT: each
    // answer that meets ...Qg2# gives up the h3 bishop). Asked only where
    // their king has no square to step to now (most mates in one) and a man
    // is loose: the test is the cost (asked with no man loose as well, it
    // finds 09SDg's ...Qg5, which Rxg5 takes, and 07Ivz's ...f6, for 69
    // instructions more).
    let flights = attacks::king_attacks(their_king) & !theirs & !hit;
    if flights.is_empty() && swap_turn(pos).and_then(|p| mate_in_one(&p, Bitboard::EMPTY)).is_some() {
        let left_by = |m: Move| {
            let Move::Normal { role, from, to, capture, .. } = m else { return stake(loose) };
            let left = most_left(from, role, to, loose);
            // The exchange on its new square, from our least man that may
            // legally take there, their guards pinned to their king off the
            // line to it left out where a man of ours off that line hits it
            // (as `guarding` reads them: the pinner that takes frees its
            // man).
            let mut after = stepped(from, role, to);
            let occupied = after.occupied();
            let by = attackers(&after, to, us, occupied);
            let taker = by.any().then(|| {
                let mut played = pos.clone();
                played.play_unchecked(m);
                least_valuable_legal_capture(&played, to).and_then(|take| take.from())
            });
            let moved = taker.flatten().map_or(0, |taker| {
                for guard in attackers(&after, to, them, occupied) & pinned {
                    let line = pin_line(guard);
                    if !line.contains(to) && (by & !line).any() {
                        after.discard_piece_at(guard);
                    }
                }
                see(&after, taker, to, value(role)).max(0)
            });
            (left.max(moved) - capture.map_or(0, value)).max(0)
        };
        let mut costed: Vec<(i32, Move)> = pos.legal_moves().into_iter().map(|m| (left_by(m), m)).collect();
        costed.sort_by_key(|&(cost, _)| cost);
        let meets = |m: Move| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            mate_in_one(&after, Bitboard::EMPTY).is_none()
        };
        if let Some(&(cost, _)) = costed.iter().find(|&&(_, m)| meets(m)) {
            return cost;
        }
    }
    // A check of theirs answers everything, where the checker stands safe,
    // but another loose man next to our king that none of theirs guards
    // once the check is given: the king may answer by taking it (Lichess
    // 02XhI: ...Rh8+ Kxg2; 09TiY: ...Bf4+ Kxg4). The check that leaves
    // them least.
    let next_to_our_king = loose & attacks::king_attacks(our_king);
    // Our men that hit a loose man: a trade they start (below) saves the
    // loose men only where it takes one of them or a loose man trades
    // itself; any other leaves the threats as they stood.
    let hitting = loose.into_iter().fold(Bitboard::EMPTY, |by, man| by | attackers(board, man, us, occupied));
    let trades_for_them = |from: Square, to: Square| loose.contains(from) || hitting.contains(to);
    // A spite check saves nothing: one by a man that is not loose itself,
    // takes none of our men that hit them nor one it wins (worth what the
    // loose men stake, not en prise before the key move: 02N7B's ...Qxh1+
    // saves no man), and hits no man of ours it could win (one unguarded,
    // or one worth more) worth that stake, which our king answers by a
    // step to a free square, our men that hit the loose men staying where
    // they are: they then face the same threats (Lichess 07s3C: ...Rd2+
    // hits the b2 pawn, and after Kg3 ...Rxb2 the d8 bishop still falls:
    // 8, not 5).
    let (at_stake, may_spite) = (stake(loose), !hitting.contains(our_king));
    let mut after_a_check = i32::MAX;
    for from in theirs & !board.pawns() & !board.kings() {
        let Some(role) = board.role_at(from) else { continue };
        for to in moves(from, role) & piece_attacks(our_king, role.of(them), occupied) {
            if stands(from, role, to) != Some(0) {
                continue;
            }
            // A check that takes a man of ours we take back is a trade.
            if ours.contains(to) && attackers(board, to, us, occupied.without(from)).any() && !trades_for_them(from, to)
            {
                continue;
            }
            // Seen with our king off its square, a slider's check reaches
            // the man behind it (a skewer is no spite check); the king
            // still guards, as the square it steps to may.
            let checked = occupied.without(from).with(to);
            let off_the_king = checked.without(our_king);
            let wins_a_man = |man: Square| {
                let worth = value_at(board, man);
                worth >= at_stake && (worth > value(role) || attackers(board, man, us, checked).is_empty())
            };
            let takes_what_counts = ours.contains(to)
                && (hitting.contains(to)
                    || (value_at(board, to) >= at_stake
                        && won_by_taking(premise.board(), them, Bitboard::from_square(to)).is_empty()));
            if may_spite
                && !loose.contains(from)
                && !takes_what_counts
                && !(piece_attacks(to, role.of(them), off_the_king) & ours)
                    .without(our_king)
                    .into_iter()
                    .any(wins_a_man)
            {
                let after = stepped(from, role, to);
                let steps = attacks::king_attacks(our_king) & !ours;
                if steps.into_iter().any(|sq| attackers(&after, sq, them, off_the_king).is_empty()) {
                    continue;
                }
            }
            let by_the_king = next_to_our_king.without(from);
            if by_the_king.is_empty() {
                return 0;
            }
            // Seen with the checker on `to` and our king off its square
            // (a slider's check covers the square behind the king).
            let checked = occupied.without(from).with(to).without(our_king);
            let taken: Bitboard = by_the_king
                .into_iter()
                .filter(|&sq| {
                    attackers(board, sq, them, checked).without(from).is_empty()
                        && !piece_attacks(to, role.of(them), checked).contains(sq)
                })
                .collect();
            if taken.is_empty() {
                return 0;
            }
            after_a_check = after_a_check.min(stake(taken));
        }
    }
    // So does a pawn that promotes where no man of ours takes the new
    // queen, and a man of ours en prise, which they take instead.
    for pawn in theirs & board.pawns() & Bitboard::from_rank(them.fold_wb(Rank::Seventh, Rank::Second)) {
        if moves(pawn, Role::Pawn).into_iter().any(|to| attackers(board, to, us, occupied.without(pawn)).is_empty()) {
            return 0;
        }
    }
    let mut lost = least_left(loose).min(after_a_check);
    if lost == 0 {
        return 0;
    }
    // A man of ours they may take instead saves them: not one that stood
    // en prise before the key move, the puzzle's premise, taken or not
    // (Lichess 07FFK: Rxb4 takes such a pawn, and ...Nxf1 still wins the
    // other rook for the knight: 11, not 9), nor one whose only taker is
    // pinned to its king off the line (0B9Ov: the pinned a7 queen "hits"
    // the d7 queen; 9, not 5).
    let newly = newly_hanging(board, them, premise.board());
    if newly.into_iter().any(|sq| attackers(board, sq, them, occupied).single_square().is_none_or(|t| free_to(t, sq))) {
        return 0;
    }
    // Or a trade they start, which we must take back: it keeps them the move
    // (Lichess 00Qm5: ...Bxg5 hxg5, and ...d4 saves the pawn), where a loose
    // man trades itself or the man it takes hits one of them. Another trade
    // leaves the threats as they stood (07ohA: after Bxe5, ...Bxc3+ bxc3
    // and the bishop still hits the b8 rook and the g7 pawn: 6, not 1).
    // Not by a loose man pinned to their king, off the pin's line: the pin
    // holds while we take it (Lichess 05Uxg: Bxc4 pins the e6 rook, which
    // cannot take the e5 queen, and Bxe6+ follows).
    let hit_by_them = ours & !board.kings() & attacked_by(board, them);
    let held = pinned & loose;
    let takers = |sq: Square| {
        attackers(board, sq, them, occupied)
            .into_iter()
            .filter(|&from| trades_for_them(from, sq) && (!held.contains(from) || free_to(from, sq)))
            .collect::<Bitboard>()
    };
    // We need not take back: where a loose man the trade leaves hit is worth
    // more than what they took, we take it instead (Lichess 04VV5: ...fxe4
    // takes the pawn that hits f5, and Qxd6 takes the loose rook).
    for sq in hit_by_them {
        let by = takers(sq);
        let Some((taker, _)) = least_valuable(board, by).filter(|&(_, role)| value(role) <= value_at(board, sq)) else {
            continue;
        };
        let others = occupied.without(taker);
        let still: Bitboard = loose
            .without(taker)
            .into_iter()
            .filter(|&man| attackers(board, man, us, others).without(sq).any())
            .collect();
        lost = lost.min((stake(still) - value_at(board, sq)).max(0));
        if lost == 0 {
            return 0;
        }
    }
    lost
}

/// What the side to move at the line's end nets by what [`settle`] searches
/// there (captures, or a check that wins), against the puzzle's premise;
/// `None` where the line mates, which nets nothing. `koga explain` shows it
/// beside the material after each ply, so that a gain can be read off.
pub fn at_the_lines_end(line: &Line) -> Option<(Color, i32)> {
    let last = line.last();
    if last.mates() {
        return None;
    }
    Some((last.after().turn(), nets_after(last, line.key().before(), &SetupHits::of(line))))
}

/// Whether the opponent's capture `at` goes on with the exchange our move
/// before it made: it takes back on that move's square, or it is no
/// desperado. A desperado (a man we attack, sold for a lesser man, which
/// we take back, the line's captures ending there) is a trade of its own,
/// the next fire's (Lichess 0COYv: ...Rxe2 wins the rook; Nxf6+ gxf6, the
/// trapped knight sold for a pawn, is not the rook's). A man sold where
/// its side takes back (09yAZ: ...Qxe1+ Qxe1 Rxe1+), or whose capture
/// opens the way to another (0Af0x: Nxh4+ gxh4 Qxd3, a discovered attack),
/// belongs to the exchange.
fn continues_the_exchange(at: Cursor) -> bool {
    let (Some(ours), Some(from)) = (at.previous(), at.mv().from()) else { return true };
    let m = at.mv();
    let on_its_square = |c: Cursor| c.mv().is_capture() && c.mv().to() == m.to();
    let before = at.before().board();
    let (us, them) = (!at.before().turn(), at.before().turn());
    // Nor does it open a line of theirs onto a man of ours (Lichess 04Mis:
    // Bxh7+ Kxh7 lets the e1 rook at the bishop on e6).
    let opens_a_line = |taken: Cursor| {
        let after = taken.after().board();
        (after.by_color(us) & attacked_by(after, them) & !attacked_by(before, them)).any()
    };
    let desperado = captured_value(m) < value(m.role())
        && attackers(before, from, us, before.occupied()).any()
        && at.reply().is_some_and(|taken| {
            on_its_square(taken) && !taken.reply().is_some_and(|c| c.mv().is_capture()) && !opens_a_line(taken)
        });
    ours.mv().to() == m.to() || !desperado
}

/// The position whose hanging men the capture searches of an exchange
/// starting at `start` leave alone: the one before the key move (the
/// puzzle's premise), or before the last desperado of theirs since that
/// answers a capture of ours, whose cut exchange has charged what hung
/// there (Lichess 0A74b: ...Bxd1 is charged the bishop Rxd1 takes back;
/// Kxf7 after Bxf7+ is not). A desperado after a quiet move of ours cuts
/// no exchange, and what hung before it is still to be charged (02370:
/// Bb5+ opens the d-file on our queen, ...Kd6 Qxc7+ ...Kxc7, and Rxd4
/// follows: -1, not 8).
fn premise_of(start: Cursor<'_>) -> &Chess {
    let line = start.line();
    line.key()
        .later()
        .take_while(|at| at.index() <= start.index())
        .filter(|&at| !at.is_solver() && at.mv().is_capture() && !continues_the_exchange(at))
        .filter(|&at| at.previous().is_some_and(|ours| ours.mv().is_capture()))
        .last()
        .map_or(line.key().before(), |desperado| desperado.before())
}

/// The opponent's capture that takes the exchange up again after their
/// check in between: the move after our capture `last` checks, we answer,
/// and they capture on the square we captured on (Lichess 05gES: ...Qxd8
/// Ne7+ Bxe7 Rxd8 Bxd8, the queen lost to the zwischenzug belongs to the
/// exchange). A check of ours in between is a tactic of its own (a fork
/// that wins the man back is the fork's).
fn resumed_after_a_check(last: Cursor) -> Option<Cursor> {
    let check = last.reply().filter(|c| !c.is_solver() && c.gives_check())?;
    let resumed = check.reply()?.reply()?;
    let square = last.mv().to();
    (last.mv().is_capture() && resumed.mv().is_capture() && resumed.mv().to() == square).then_some(resumed)
}

/// Our answer to their quiet check after our capture `last`, where the
/// line ends with it, taking nothing: the exchange is over, and what they
/// can still take there is the line's end (Lichess 095vY: ...Rxa7 Qb8+
/// ...Kf7, and Qxa7 takes the rook: -2, not 3; 02lVn: ...Rxe7 Rc8+ ...Re8
/// blocks, and Rxe8+ takes the rook: 4, not 9).
///
/// So too where `last` is their capture with check, part of the exchange,
/// and our answer ends the line: what they take next is still to come
/// (Lichess 044Gb: ...Bxf2+ forks, Kf1 ...Bxe1 exf7+ ...Kf8, and Kxe1
/// takes the bishop: 2, not 5).
fn check_answered_as_the_line_ends(last: Cursor) -> Option<Cursor> {
    if !last.mv().is_capture() {
        return None;
    }
    let check = if last.is_solver() {
        last.reply().filter(|c| !c.is_solver() && !c.mv().is_capture() && c.gives_check())?
    } else if last.gives_check() {
        last
    } else {
        return None;
    };
    check.reply().filter(|answer| answer.reply().is_none() && !answer.mv().is_capture())
}

/// The opponent's capture after its capture with check (`last`) and our
/// answer, which took nothing, of a man of ours that stood on its square
/// since the key move: the check forced the answer, so the capture belongs
/// to the exchange (Lichess 08Erp: ...Rxh5 wins the trapped queen, Bxh5+
/// Kf8 dxe7+ ...Qxe7 takes the bishop the setup move hit: 3, not 5). Not a
/// man moved since, as a block (0CCFX: ...Rf7 Qxf7+ ...Bxf7, the hanging
/// queen's exchange).
fn taken_after_their_check(last: Cursor) -> Option<Cursor> {
    if last.is_solver() || !last.mv().is_capture() || !last.gives_check() {
        return None;
    }
    let answer = last.reply()?;
    let taken = answer.reply().filter(|taken| !answer.mv().is_capture() && taken.mv().is_capture())?;
    stood_since_key(taken, capture_square(taken.mv())).then_some(taken)
}

/// Whether our man on `square` stood there since the key move: no move of
/// ours before `at` since then left or reached it.
fn stood_since_key(at: Cursor, square: Square) -> bool {
    !at.since_key().any(|by| by.is_solver() && (by.mv().from() == Some(square) || by.mv().to() == square))
}

/// What the searches at a line's end share, each found the first time an
/// exchange reaches the end and asks for it.
struct LineEnd<'a> {
    hits: SetupHits<'a>,
    /// What the opponent nets past an exchange's last move (its index)
    /// against a premise (its address), each pair searched once.
    pending: RefCell<InlineVec<(usize, usize, i32), 4>>,
}

/// Plies the capture search looks ahead at the line's end.
const CAPTURE_SEARCH_PLIES: u32 = 4;

/// What the side to move in `pos` nets at best by captures alone (0 where
/// none pays), starting with a capture on `square` (the exchange's last)
/// or of a man left hanging (attacked and undefended now, not so in
/// `premise`, the position before the key move): a small search over
/// those captures and every capture that answers them, a few plies deep,
/// material only, either side free to stop capturing. A recapturer pinned
/// to a piece behind it gives that piece up, and a recapture that unguards
/// another man loses it, as the search sees. A man that stood en prise
/// before the key move is not its business, unless the setup move put it
/// so or the line saved it a while ([`first_targets`]).
fn best_captures(pos: &Chess, square: Square, premise: &Chess, hits: &SetupHits, forks: bool) -> i32 {
    let attacks = attacked_by(pos.board(), pos.turn());
    if pos.is_check() {
        let targets = first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks);
        let net = best_answer_to_check(pos, targets, premise);
        // A forced answer may walk into a check that wins (Lichess 08QFG:
        // ...Qxf3+ Kg1, and ...Rg8+ wins the queen for the rook).
        if let Some(m) = only_legal_move(pos) {
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !after.is_check() {
                let taken = if m.is_capture() && targets.contains(capture_square(m)) { captured_value(m) } else { 0 };
                return net.min(taken - forking_check(&after, premise, true, false));
            }
        }
        return net;
    }
    let targets = first_targets(pos.board(), pos.turn(), square, premise.board(), hits, attacks);
    best_captures_of(pos.board(), pos.turn(), targets, Some(attacks), premise, Some(pos), forks)
}

/// What the side to move (not in check) nets at best with a quiet check
/// that hits a man of the other side too, worth more than the checker or
/// undefended: the other side answers the check as it best can (taking
/// the checker where it may), and then loses what the capture search
/// finds (Lichess 0ALii: ...gxh5 wins the trapped queen, and Nf7+ forks
/// king and queen: 2, not 8). With `baits`, also a check by a man that
/// only a greater man may take, guarded, hitting nothing (08QFG: ...Rg8+,
/// and Qxg8+ Kxg8). With `pawns`, an undefended pawn is a man it may hit
/// too. 0 where no such check pays. Discovered checks and a pawn's are
/// left out.
fn forking_check(pos: &Chess, premise: &Chess, baits: bool, pawns: bool) -> i32 {
    let (board, us) = (pos.board(), pos.turn());
    let Some(king) = board.king_of(!us) else { return 0 };
    let occupied = board.occupied();
    let pieces = board.by_color(!us) & !board.kings() & if pawns { Bitboard::FULL } else { !board.pawns() };
    let mut best = 0;
    // Where the other side, were it to move, mates in one: the mating man.
    let mate = OnceCell::new();
    let mate_threat = || swap_turn(pos).and_then(|passed| mate_in_one(&passed, Bitboard::EMPTY)).and_then(|m| m.from());
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let piece = role.of(us);
        // Squares this kind of man checks the king from.
        let checking = piece_attacks(king, role.of(!us), occupied) & !occupied;
        if checking.is_empty() {
            continue;
        }
        for from in board.by_color(us) & board.by_role(role) {
            let occupied = occupied.without(from);
            for to in piece_attacks(from, piece, board.occupied()) & checking {
                let hit = piece_attacks(to, piece, occupied) & pieces;
                if hit.is_empty() && !baits {
                    continue;
                }
                let takers = attackers(board, to, !us, occupied);
                let guarded = || attackers(board, to, us, occupied).any();
                let greater = |sq: Square| board.role_at(sq).is_some_and(|man| value(man) > value(role));
                // A check that only a greater man may take, guarded: taking
                // it loses, and the answer may lose more (Lichess 08QFG:
                // ...Rg8+, and Qxg8+ Kxg8 or a block the rook takes).
                let bait = baits
                    && (takers & !board.kings()).any()
                    && (takers & !board.kings()).into_iter().all(greater)
                    && guarded();
                if hit.is_empty() && !bait {
                    continue;
                }
                // Else the checker must stand safe: a man that may be taken
                // forks nothing (the king may take only where it is free to).
                if !bait && takers.any() && ((takers & !board.kings()).any() || !guarded()) {
                    continue;
                }
                let worth =
                    bait || hit.into_iter().any(|sq| greater(sq) || attackers(board, sq, !us, occupied).is_empty());
                let Some(m) = worth.then(|| legal_plain_move(pos, from, to, None)).flatten() else { continue };
                let mut after = pos.clone();
                after.play_unchecked(m);
                let wins = -best_answer_to_check(&after, Bitboard::from_square(to), premise);
                // A fork does not pay where the other side has a mate in one
                // to play once we take (Lichess 03fqG: Qe4+ hits the h1 rook,
                // and ...Qg7# is threatened), unless the man that mates is
                // one the check hits (00IDw: Nd6+ forks the e8 rook that
                // threatens ...Re1#).
                if wins > best && !mate.get_or_init(mate_threat).is_some_and(|from| !hit.contains(from)) {
                    best = wins;
                }
            }
        }
    }
    best
}

/// [`best_captures`] for `turn` to move on `board`, not in check, its first
/// captures answered by captures alone.
fn best_captures_on(board: &Board, turn: Color, square: Square, premise: &Chess, hits: &SetupHits) -> i32 {
    let attacks = attacked_by(board, turn);
    let targets = first_targets(board, turn, square, premise.board(), hits, attacks);
    best_captures_of(board, turn, targets, Some(attacks), premise, None, false)
}

/// [`best_captures_on`] with the first capture's `targets` given; where
/// `pos` is the position itself, no first capture that lets the other side
/// mate (in one, or by forced checks) is played, and with `forks`, at the
/// line's end, one that a forking check answers nets no more than the fork
/// leaves.
fn best_captures_of(
    board: &Board,
    turn: Color,
    targets: Bitboard,
    attacks: Option<Bitboard>,
    premise: &Chess,
    pos: Option<&Chess>,
    forks: bool,
) -> i32 {
    let found = Found::default();
    let loose = Loose::new(board, premise, &found);
    let mut scope = pos.map_or(Scope::root(targets, loose), |pos| {
        Scope::guarded(targets, loose, Guard { pos, forks_against: forks.then_some(premise) })
    });
    if let Scope::Targets { attacks: known, .. } = &mut scope {
        debug_assert!(attacks.is_none_or(|attacks| attacks == attacked_by(board, turn)));
        *known = attacks;
    }
    capture_search(board, turn, CAPTURE_SEARCH_PLIES, 0, i32::MAX / 2, scope, checks_on(board, !turn))
}

/// [`best_captures`] for a side in check at the line's end, which cannot
/// stop there: it must answer the check (Lichess 04Kar: after ...Rxc1+ the
/// king steps aside and the queen left on b6 falls). Each answer nets what
/// it takes among `targets` (the men this side's search would start on),
/// less what the other side then nets by captures of the men the exchange
/// left hanging, of the men the answer itself leaves en prise (a man the
/// king stops guarding as it steps away, one on a line its step opens, a
/// block left hanging) and of the man that took, or, where their king took,
/// by a forking check ([`forking_check`], Lichess 028yE's ...Qe4+); below 0
/// where every answer loses.
fn best_answer_to_check(pos: &Chess, targets: Bitboard, premise: &Chess) -> i32 {
    let board = pos.board();
    let left_hanging = newly_hanging(board, !pos.turn(), premise.board()) | guarded_by_the_king_alone(pos);
    // Most often no answer can take a target or promote, and nothing is
    // left hanging: every answer nets 0, and none need be listed.
    let promoting = pos.our(Role::Pawn) & Bitboard::from_rank(pos.turn().fold_wb(Rank::Seventh, Rank::Second));
    if left_hanging.is_empty()
        && promoting.is_empty()
        && targets.into_iter().all(|sq| attackers(board, sq, pos.turn(), board.occupied()).is_empty())
    {
        return 0;
    }
    // An answer after which the checking side mates in one is played only
    // where every answer allows one (Lichess 07V4V: after ...Bf5+, Kg5
    // meets ...Qg3#, so Qxf5 ...Qxf5+ gives the queen: 7, not 2). Asked of
    // the best answer, and of the next where it does.
    let answers = pos.legal_moves();
    let mut barred = [0u64; 4];
    if answers.len() == 1 {
        // No other answer to play.
        return best_answer_among(pos, &answers, &barred, targets, left_hanging, premise).map_or(0, |(net, _)| net);
    }
    let mut best_of_all = None;
    while let Some((net, i)) = best_answer_among(pos, &answers, &barred, targets, left_hanging, premise) {
        best_of_all.get_or_insert(net);
        let mut after = pos.clone();
        after.play_unchecked(answers[i]);
        if mate_in_one(&after, Bitboard::EMPTY).is_none() {
            return net;
        }
        barred[i / 64] |= 1 << (i % 64);
    }
    best_of_all.unwrap_or(0)
}

/// The best of `answers` to the check in `pos` not `barred` (a bit per
/// index), and its index, as [`best_answer_to_check`] counts them.
fn best_answer_among(
    pos: &Chess,
    answers: &[Move],
    barred: &[u64; 4],
    targets: Bitboard,
    left_hanging: Bitboard,
    premise: &Chess,
) -> Option<(i32, usize)> {
    // The search nets the other side at least 0, so an answer nets at most
    // what it takes: one that cannot beat the best so far is not played,
    // and the search of one that can stops once it cannot.
    let mut best: Option<(i32, usize)> = None;
    for (i, &m) in answers.iter().enumerate() {
        if barred[i / 64] & 1 << (i % 64) != 0 {
            continue;
        }
        let counts = m.is_capture() && targets.contains(capture_square(m));
        let mut answered = left_hanging;
        if m.from().is_some_and(|from| answered.contains(from)) {
            answered.discard(m.from().expect("a board move"));
            answered.add(m.to());
        }
        if counts {
            answered.add(m.to());
        }
        let taken = if counts { captured_value(m) } else { 0 } + m.promotion().map_or(0, |role| value(role) - 1);
        if best.is_some_and(|(best, _)| taken <= best) {
            continue;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        // What the answer itself leaves en prise may be taken too (Lichess
        // 07dNV: ...Ke6 clears the seventh rank for Rxd7).
        answered |= newly_hanging(after.board(), after.turn(), pos.board());
        if answered.is_empty() {
            best = Some((taken, i)); // nothing for the other side to take
            continue;
        }
        let found = Found::default();
        let bound = best.map_or(i32::MAX / 2, |(best, _)| taken - best);
        let theirs = capture_search(
            after.board(),
            after.turn(),
            CAPTURE_SEARCH_PLIES,
            0,
            bound,
            Scope::root(answered & after.them(), Loose::new(after.board(), premise, &found)),
            after.is_check(),
        );
        // Their king that takes steps into the open, and may walk into a
        // forking check, which may hit an undefended pawn too (Lichess
        // 028yE: ...Bxg2+ Kxg2, and ...Qe4+ forks the king and the c2 pawn).
        // Asked of a king's capture that would be the best answer so far
        // alone: each fork's answers are searched (asked of every capture,
        // 2 more dev gains for 35 instructions more). A capture that counts
        // leaves its square among `answered`, so it is asked here.
        let theirs = if theirs < bound && counts && m.role() == Role::King && !after.is_check() {
            theirs.max(forking_check(&after, premise, false, true))
        } else {
            theirs
        };
        if theirs < bound {
            best = Some((taken - theirs, i));
        }
    }
    best
}

/// The pieces of the side in check in `pos` that a checker hits and only
/// their king guards: the king that steps away gives them up (Lichess
/// 0CIBR: ...Qxg2+ hits the f1 rook, and after Kd1 or Rf2 it falls).
fn guarded_by_the_king_alone(pos: &Chess) -> Bitboard {
    let (board, side) = (pos.board(), pos.turn());
    let Some(king) = board.king_of(side) else { return Bitboard::EMPTY };
    let pieces = board.by_color(side) & !board.pawns() & !board.kings() & attacks::king_attacks(king);
    let hit = pos.checkers().into_iter().fold(Bitboard::EMPTY, |hit, checker| {
        hit | board.piece_at(checker).map_or(Bitboard::EMPTY, |piece| piece_attacks(checker, piece, board.occupied()))
    }) & pieces;
    hit.into_iter()
        .filter(|&man| {
            attackers(board, man, side, board.occupied()) == Bitboard::from_square(king)
                && xray_defenders(board, man, side).is_empty()
        })
        .collect()
}

/// The men [`best_captures`] starts on: the man on `square`, and those of
/// the other side `turn` wins by taking them ([`won_by_taking`]) that were not
/// so in `premise`, are among `hits`, or that the line saved a while and
/// gave up again ([`SetupHits::relapsed`]).
fn first_targets(
    board: &Board,
    turn: Color,
    square: Square,
    premise: &Board,
    hits: &SetupHits,
    attacks: Bitboard,
) -> Bitboard {
    let now = won_by_taking_seen(board, turn, board.by_color(!turn), attacks);
    let stood = won_by_taking(premise, turn, now);
    let stood = if stood.is_empty() { stood } else { stood & !hits.get() };
    let won = if stood.is_empty() { now } else { now & !(stood & !hits.relapsed(board, premise, stood)) };
    Bitboard::from_square(square) | won
}

/// The men `attacker` could win on `board` that it could not win in
/// `start`: en prise now, not so then.
fn newly_hanging(board: &Board, attacker: Color, start: &Board) -> Bitboard {
    let now = won_by_taking(board, attacker, board.by_color(!attacker));
    if now.is_empty() {
        return now;
    }
    now & !won_by_taking(start, attacker, now)
}

/// Those of `men` that `attacker` wins by taking them on `board`: the
/// [`hanging`] ones, and those a lesser man of its attacks (Lichess 03Lyw:
/// the rook on b3 a pawn takes, however well guarded), unless that man is
/// pinned to its king, or to a greater man behind it, on a line the
/// capture leaves (042kS: the e7 bishop pinned to its king does not win
/// the f6 queen). This is what `gain`'s docs call en prise. The labels'
/// [`crate::board::en_prise`] is a static exchange that pays, which also
/// counts a man hit more often than it is guarded: tried here, it moved
/// gains both ways (docs/gain-judging.md).
fn won_by_taking(board: &Board, attacker: Color, men: Bitboard) -> Bitboard {
    if men.is_empty() {
        return men;
    }
    won_by_taking_seen(board, attacker, men, attacked_by_at(board, attacker, men))
}

/// [`won_by_taking`], with the squares `attacker` attacks on `board` (of
/// `men` at least) given.
fn won_by_taking_seen(board: &Board, attacker: Color, men: Bitboard, attacks: Bitboard) -> Bitboard {
    let attacked = men & board.by_color(!attacker) & attacks;
    let mut won = hanging_among(board, attacker, attacked);
    let occupied = board.occupied();
    for sq in attacked & !won & !board.pawns() {
        let Some(man) = board.role_at(sq) else { continue };
        let lesser = |by: Bitboard| least_valuable(board, by).is_some_and(|(_, cheapest)| value(cheapest) < value(man));
        let by = attackers(board, sq, attacker, occupied);
        if lesser(by)
            && lesser(by.into_iter().filter(|&taker| pins_off_the_line(board, taker, sq).next().is_none()).collect())
        {
            won.add(sq);
        }
    }
    won
}

/// Whether `side` gives check on `board`.
fn checks_on(board: &Board, side: Color) -> bool {
    board.king_of(!side).is_some_and(|king| attackers(board, king, side, board.occupied()).any())
}

/// Those of `men` that stand on `board` as men of `attacker`'s opponent,
/// attacked by `attacker` and undefended: the attack maps first, then an
/// x-ray defender asked only of the men they leave. A king guards only
/// where it may take back: not a man whose capture leaves its square
/// attacked still (Lichess 0CKgM: fxg4 opens the f-file, and the king no
/// longer guards f7 against Bxf7+).
fn hanging(board: &shakmaty::Board, attacker: shakmaty::Color, men: Bitboard) -> Bitboard {
    hanging_among(board, attacker, men & board.by_color(!attacker) & attacked_by(board, attacker))
}

/// [`hanging`] of `open`, men of `attacker`'s opponent it attacks.
fn hanging_among(board: &Board, attacker: Color, open: Bitboard) -> Bitboard {
    if open.is_empty() {
        return open;
    }
    let defended = attacked_by_at(board, !attacker, open);
    let mut hanging = Bitboard::EMPTY;
    for sq in open & !defended {
        if xray_defenders(board, sq, !attacker).is_empty() {
            hanging.add(sq);
        }
    }
    let Some(king) = board.king_of(!attacker) else { return hanging };
    let occupied = board.occupied();
    for sq in open & defended & attacks::king_attacks(king) {
        let by = attackers(board, sq, attacker, occupied);
        let king_retakes = by
            .into_iter()
            .all(|first| (attackers(board, sq, attacker, occupied.without(first)).without(first)).is_empty());
        if !king_retakes
            && attackers(board, sq, !attacker, occupied) == Bitboard::from_square(king)
            && xray_defenders(board, sq, !attacker).is_empty()
        {
            hanging.add(sq);
        }
    }
    hanging
}

/// Which captures a side may make in the [`capture_search`]: the side it
/// measures (the one that moves first) takes `men`, then anything; the
/// other side only answers.
#[derive(Clone, Copy, Debug)]
enum Scope<'a> {
    /// The measured side's captures: of `men`, and of another man with
    /// check where it loses nothing by its exchange (not one en prise in
    /// the premise). `loose`: its men the line left en prise since the key
    /// move, which the other side may take whenever it answers. `guard`:
    /// at the root, the position searched, where a capture that lets the
    /// other side mate (in one, or by checks with one answer each) is not
    /// played, and, with the premise, at the line's end, one it answers
    /// with a forking check nets no more than the fork leaves.
    /// `premise_off`: the opponent's captures once we have answered,
    /// which may not take a man of ours en prise in the premise.
    /// `attacks`: at the root, where already found, the squares the
    /// measured side attacks (found as its first targets were).
    Targets { men: Bitboard, loose: Loose<'a>, guard: Option<Guard<'a>>, premise_off: bool, attacks: Option<Bitboard> },
    /// The other side's, answering the capture that left `before` and
    /// landed on `to`: of the men that capture changed ([`answers`]) and the
    /// loose men, or of any man by a man the measured side attacks (it
    /// escapes with what it takes) or with check.
    Answers { before: &'a Board, to: Square, loose: Loose<'a> },
}

/// The position at a search's root, whose first captures are answered past
/// captures: `forks_against`, at the line's end, the premise a forking
/// check that answers them is measured against ([`Scope::answered`]).
#[derive(Clone, Copy, Debug)]
struct Guard<'a> {
    pos: &'a Chess,
    forks_against: Option<&'a Chess>,
}

/// The measured side's men left en prise since the key move: hanging to
/// the other side at the search's root (`end`), not in `premise` (the
/// position before the key move), found once, where an answer first asks;
/// and the men its captures in the search put where they took (`took`),
/// which the other side may take back later, once it has answered a
/// check (Lichess 09vCU: Bxc8+ Kd8 Rxa1 Kxc8).
#[derive(Clone, Copy, Debug)]
struct Loose<'a> {
    end: &'a Board,
    premise: &'a Board,
    /// The side to move in the premise: the solver, or the opponent where
    /// the premise is the position before its desperado ([`premise_of`]).
    to_move: Color,
    found: &'a Found,
    took: Bitboard,
}

/// What a search's [`Loose`] men find once, where first asked.
#[derive(Default, Debug)]
struct Found {
    /// The measured side's men hanging at the root, not in the premise.
    hanging: OnceCell<Bitboard>,
    /// The men of the side to move in the premise en prise there.
    premise: OnceCell<Bitboard>,
}

impl<'a> Loose<'a> {
    fn new(end: &'a Board, premise: &'a Chess, found: &'a Found) -> Loose<'a> {
        Loose { end, premise: premise.board(), to_move: premise.turn(), found, took: Bitboard::EMPTY }
    }

    /// These and the man our capture put on `to`.
    fn with_taker_on(self, to: Square) -> Loose<'a> {
        Loose { took: self.took.with(to), ..self }
    }

    /// The men of the side to move in the premise en prise there.
    fn premise_men(self) -> Bitboard {
        let (premise, side) = (self.premise, self.to_move);
        *self.found.premise.get_or_init(|| won_by_taking(premise, !side, premise.by_color(side)))
    }

    /// Those men, of `side`'s opponent, that still stand on `board`
    /// (`side` is the answering side, the same throughout a search).
    fn on(self, board: &Board, side: Color) -> Bitboard {
        (*self.found.hanging.get_or_init(|| newly_hanging(self.end, side, self.premise)) | self.took)
            & board.by_color(!side)
    }
}

impl<'a> Scope<'a> {
    /// The measured side's scope at the search's root.
    fn root(men: Bitboard, loose: Loose<'a>) -> Scope<'a> {
        Scope::Targets { men, loose, guard: None, premise_off: false, attacks: None }
    }

    /// [`Scope::root`] on the position `guard` holds, whose first captures
    /// are answered past captures too ([`Scope::answered`]).
    fn guarded(men: Bitboard, loose: Loose<'a>, guard: Guard<'a>) -> Scope<'a> {
        Scope::Targets { men, loose, guard: Some(guard), premise_off: false, attacks: None }
    }

    /// What the other side nets, once the capture of the man on `to` by the
    /// `role` on `from` is played, by what a capture search does not see,
    /// where this scope guards against it: `None` where it mates in one
    /// (Lichess 04uIX: ...Qxc6 takes the pinning queen, and Rd8# follows)
    /// or by checks with one answer each ([`forced_mate`], two deep:
    /// 08O6I's ...Rxd6 meets Re8+ ...Rf8 Rxf8#), else what a forking check
    /// wins (0 where none does: Lichess 02WAN, ...gxh4 takes the bishop,
    /// and Nf6+ forks king, queen and rook), an undefended pawn its second
    /// man too where the capture is not taken back (where it nets, `net`,
    /// all it `won`: a pawn won back matters only there; 07gVt's Kxe1 meets
    /// ...Qa1+ and ...Qxa2); or, where the opponent's capture is taken back
    /// and nets no more, what we take back and what its loose men then
    /// lose ([`lost_loose_men`]).
    fn answered(
        self,
        role: Role,
        from: Square,
        to: Square,
        promotion: Option<Role>,
        won: i32,
        net: i32,
    ) -> Option<i32> {
        let pawns = net >= won;
        let Scope::Targets { guard: Some(Guard { pos, forks_against }), .. } = self else { return Some(0) };
        let mut after = pos.clone();
        after.play_unchecked(Move::Normal { role, from, capture: pos.board().role_at(to), to, promotion });
        if forced_mate(&after, 2) {
            return None;
        }
        Some(match forks_against {
            Some(premise) if !after.is_check() => {
                let fork = forking_check(&after, premise, false, pawns);
                // Their capture at the line's end that we take back, where
                // the exchange stops there: the men the line left loose
                // still fall as where nothing is taken (Lichess 09Ebl:
                // ...Nxf1 Kxf1, and the c6 queen hits a6 and d6, one of
                // which falls: Black nets 1, not 2). An exchange that goes
                // on is the search's (00VDN: Rxd4 ...Rxd4 Kxd4).
                let taken = value(promotion.unwrap_or(role));
                let back = if pos.turn() != premise.turn() && net == won - taken {
                    least_valuable_legal_capture(&after, to).map_or(0, |m| {
                        let mut back = after.clone();
                        back.play_unchecked(m);
                        if back.is_check() {
                            0
                        } else {
                            taken + lost_loose_men(&back, premise)
                        }
                    })
                } else {
                    0
                };
                fork.max(back)
            }
            _ => 0,
        })
    }

    /// The next side's scope once a capture landing on `to` has been
    /// played on `before` by `mover`. Once the other side has answered,
    /// the measured side may take any man, but the opponent none of ours
    /// that stood en prise to it before the key move, the premise, as at
    /// the root (05uHR: after ...cxb3, axb3 ...Nxd5 and Qxa7 would take a
    /// pawn the queen hit before the key move: 0, not 1). Our own captures
    /// always count. (The men the setup move's piece hit, which the root
    /// counts, are not told apart here: a later capture of one is rare.
    /// Where the premise is the position before a desperado, the sides
    /// turn round, as [`first_targets`] holds both sides to the premise.)
    fn next(self, before: &'a Board, to: Square, mover: Color) -> Scope<'a> {
        match self {
            Scope::Targets { loose, .. } => Scope::Answers { before, to, loose: loose.with_taker_on(to) },
            Scope::Answers { loose, .. } => Scope::Targets {
                men: Bitboard::FULL,
                loose,
                guard: None,
                premise_off: mover == loose.to_move,
                attacks: None,
            },
        }
    }

    /// Whether `us`, to move on `board`, may take the man on `victim` with
    /// the man on `from` (without check: an answer off the men the last
    /// capture changed must give check).
    fn allows(self, board: &Board, us: Color, from: Square, victim: Square) -> bool {
        match self {
            Scope::Targets { men, loose, premise_off, .. } => {
                men.contains(victim) && !(premise_off && loose.premise_men().contains(victim))
            }
            Scope::Answers { before, to, loose } => {
                // Besides: a man of ours they attack escapes with what it
                // takes, and a lesser man takes a greater whatever follows,
                // but not a man that stood en prise before the key move
                // (Lichess 0A74b: the bishop that took our queen on the
                // setup move).
                answers(before, board, us, to, victim)
                    || loose.on(board, us).contains(victim)
                    || ((attackers(board, from, !us, board.occupied()).any()
                        || board.role_at(victim).map_or(0, value) > board.role_at(from).map_or(0, value))
                        && hanging(loose.premise, us, Bitboard::from_square(victim)).is_empty())
            }
        }
    }
}

/// Whether taking the man on `victim` (attacked by `side` on `after`)
/// answers the capture that turned `before` into `after`, landing on `to`:
/// it is the man that took, or a man that capture unmasked to `side` or
/// left undefended. A capture of `side`'s own, there before it (Lichess
/// 01Dmj: ...Bxf3, a trade it had anyway; 0BxG7: ...Qxd7, a man en prise
/// since the setup move), does not answer: the line is over, and it would
/// cancel what the opponent still wins.
fn answers(before: &Board, after: &Board, side: Color, to: Square, victim: Square) -> bool {
    let guarded = |board: &Board| {
        attackers(board, victim, !side, board.occupied()).any() || xray_defenders(board, victim, !side).any()
    };
    victim == to
        || attackers(before, victim, side, before.occupied()).is_empty()
        || (!guarded(after) && guarded(before))
}

/// Negamax over captures by `us` on `board` within `scope` with alpha-beta
/// bounds: what the side to move nets, at least 0, a capture without check
/// on the last ply counted by its static exchange ([`see`]). Captures need
/// only the men: no castling, en passant or clocks, so the search plays
/// them on a bare [`Board`] rather than on a `Chess`.
fn capture_search(board: &Board, us: Color, plies: u32, mut alpha: i32, beta: i32, scope: Scope, check: bool) -> i32 {
    if plies == 0 {
        return alpha.max(0);
    }
    let (occupied, king) = (board.occupied(), board.king_of(us));
    if check {
        let checkers = king.map_or(Bitboard::EMPTY, |king| attackers(board, king, !us, occupied));
        return evade(board, us, checkers, plies, alpha, beta, scope);
    }
    alpha = alpha.max(0);
    if alpha >= beta {
        return alpha;
    }
    // No capture nets more than the most valuable man it may take (and a
    // promotion on the way), unless it gives check: a side in check may not
    // stop. Where that cannot raise `alpha`, nothing to look at.
    let them = board.by_color(!us)
        & match scope {
            Scope::Targets { men, .. } => men,
            Scope::Answers { .. } => Bitboard::FULL,
        };
    let most = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Pawn]
        .into_iter()
        .find(|&role| (them & board.by_role(role)).any())
        .map_or(0, value);
    let promoting = board.by_color(us) & board.pawns() & Bitboard::from_rank(us.fold_wb(Rank::Seventh, Rank::Second));
    let bonus = if promoting.any() { value(Role::Queen) - 1 } else { 0 };
    // One pass over our men says which of theirs are attacked at all: most
    // are not, and their attackers need not be asked.
    let attacked = match scope {
        Scope::Targets { attacks: Some(attacks), .. } => attacks,
        _ => attacked_by(board, us),
    };
    let mut victims = them & attacked;
    if let Scope::Targets { loose, premise_off: true, .. } = scope {
        if victims.any() {
            victims &= !loose.premise_men();
        }
    }
    // Found where a capture first asks.
    let checks = OnceCell::new();
    let checks = || checks.get_or_init(|| Checks::of(board, us));
    // Where the first captures are held to their targets, a capture of
    // another man with check may still come first: the side it checks must
    // answer, and the capture on the targets follows (Lichess 04fOl: hxg7+
    // Kxg7, then Kxd2, a pawn traded, not lost).
    if let Scope::Targets { men, .. } = scope {
        let others = board.by_color(!us) & !men & attacked;
        if others.any() {
            // A discoverer, or a pawn on the king's lines that promotes,
            // may check whatever it takes.
            let may = if checks().discoverers.any() || (promoting & checks().lines).any() {
                others
            } else {
                others & checks().lines
            };
            if may.any() {
                victims |= may;
            }
        }
    }
    if victims.is_empty() {
        return alpha;
    }
    if most + bonus <= alpha && !checks().any(victims, promoting) {
        return alpha;
    }
    // Value-ordered (the most valuable victims first, the least valuable
    // capturer first among equals): the best answers are searched first.
    let last_rank = us.fold_wb(Rank::Eighth, Rank::First);
    let classes = [
        (value(Role::King), board.kings()),
        (value(Role::Queen), board.queens()),
        (value(Role::Rook), board.rooks()),
        (value(Role::Bishop), board.bishops() | board.knights()),
        (value(Role::Pawn), board.pawns()),
    ];
    let capturers = [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
    for (worth, men) in classes {
        let class = men & victims;
        if class.is_empty() {
            continue;
        }
        // Every capture from here on nets at most `worth` and a promotion,
        // checks aside: none can raise `alpha`.
        if worth + bonus <= alpha && !checks().any(victims, promoting) {
            break;
        }
        // The victims of the class, by square, with their attackers (a side
        // has at most 16 men).
        let mut hit = [(Square::A1, Bitboard::EMPTY); 16];
        let (mut hits, mut capturing) = (0, Bitboard::EMPTY);
        for to in class {
            hit[hits] = (to, attackers(board, to, us, occupied));
            capturing |= hit[hits].1;
            hits += 1;
        }
        for role in capturers {
            let ours = board.by_role(role) & capturing;
            if ours.is_empty() {
                continue;
            }
            for &(to, attacking) in &hit[..hits] {
                let promotes = role == Role::Pawn && to.rank() == last_rank;
                let won = worth + if promotes { value(Role::Queen) - 1 } else { 0 };
                for from in attacking & ours {
                    // An answer not in check nets at least 0, so this
                    // capture nets at most `won`: where that cannot raise
                    // `alpha`, nothing need be played, nor its legality asked.
                    let may_check = checks().may(from, to, promotes);
                    if (won <= alpha && !may_check)
                        || !capture_leaves_king_safe(board, us, king, Bitboard::EMPTY, role, from, to)
                    {
                        continue;
                    }
                    let answering = !scope.allows(board, us, from, to);
                    // On the last ply, no plies left to answer in, a capture
                    // without check counts as its exchange on the square
                    // (Lichess 07GSL: Rxb6, which the king takes back).
                    let on_the_last_ply = || if promotes { won } else { see(board, from, to, worth) }.min(beta);
                    let net = if plies == 1 && !answering && !may_check {
                        on_the_last_ply()
                    } else {
                        let mut after = board.clone();
                        after.discard_piece_at(from);
                        after.set_piece_at(to, if promotes { Role::Queen } else { role }.of(us));
                        let check = may_check && checks_on(&after, us);
                        if (answering || won <= alpha) && !check {
                            continue;
                        }
                        // A check off the targets is no way in where it
                        // loses its man, or takes one that stood en prise
                        // before the key move: that is the puzzle's premise.
                        if let Scope::Targets { loose, .. } = scope {
                            if answering
                                && (see(board, from, to, worth) < 0
                                    || won_by_taking(loose.premise, us, Bitboard::from_square(to)).any())
                            {
                                continue;
                            }
                        }
                        let net = if plies == 1 && !check {
                            on_the_last_ply()
                        } else {
                            let next = scope.next(board, to, us);
                            won - capture_search(
                                &after,
                                !us,
                                beyond(plies, check),
                                won - beta,
                                won - alpha,
                                next,
                                check,
                            )
                        };
                        // Asked only of a capture that would count.
                        if net > alpha {
                            match scope.answered(role, from, to, promotes.then_some(Role::Queen), won, net) {
                                None => continue,
                                // No fork: the search's figure stands (above
                                // `won` where the capture gives a check that
                                // costs its answer).
                                Some(0) => net,
                                Some(fork) => net.min(won - fork),
                            }
                        } else {
                            net
                        }
                    };
                    alpha = alpha.max(net);
                    if alpha >= beta {
                        return alpha;
                    }
                }
            }
        }
    }
    alpha
}

/// Where `us`'s captures on a board may give check: landing on a square
/// that sees the enemy king (a man a slider would check from, a knight's
/// square or a pawn's), or leaving one between the king and a slider of
/// ours. Moves it flags are played out to find out; every one it leaves is
/// no check.
struct Checks {
    /// Squares on the enemy king's lines (up to the first man each way) and
    /// its knight squares.
    lines: Bitboard,
    /// Our men that alone stand between the enemy king and a slider of ours.
    discoverers: Bitboard,
}

impl Checks {
    fn of(board: &Board, us: Color) -> Checks {
        let Some(king) = board.king_of(!us) else {
            return Checks { lines: Bitboard::EMPTY, discoverers: Bitboard::EMPTY };
        };
        let occupied = board.occupied();
        let lines = attacks::queen_attacks(king, occupied) | attacks::knight_attacks(king);
        let ours = board.by_color(us);
        let aimed = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens()
            | attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens())
            & ours;
        let mut discoverers = Bitboard::EMPTY;
        for slider in aimed {
            let between = attacks::between(king, slider) & occupied;
            if between.single_square().is_some() && (between & ours).any() {
                discoverers |= between;
            }
        }
        Checks { lines, discoverers }
    }

    /// Whether the capture from `from` to `to` may give check: landing on
    /// the king's lines, uncovering a slider, or a pawn promoting from them
    /// (a queen on a8 checks through b7, the square it left).
    fn may(&self, from: Square, to: Square, promotes: bool) -> bool {
        self.lines.contains(to) || self.discoverers.contains(from) || (promotes && self.lines.contains(from))
    }

    /// Whether any capture of `victims`, or by one of the `promoting` pawns,
    /// may give check.
    fn any(&self, victims: Bitboard, promoting: Bitboard) -> bool {
        (victims & self.lines).any() || self.discoverers.any() || (promoting & self.lines).any()
    }
}

/// The plies left to the answer of a capture played with `plies` left: a
/// capture with check on the last ply is answered all the same (Lichess
/// 05Vzs: ...Qxf2+ is met by Kxf2). The answer to a check ([`evade`])
/// takes a ply whatever it does, so a search runs at most twice its
/// plies deep.
fn beyond(plies: u32, check: bool) -> u32 {
    if check {
        plies.max(2) - 1
    } else {
        plies - 1
    }
}

/// [`capture_search`] for `us`, in check on `board` from `checkers`: it
/// may not stop, so it plays its best legal answer, a capture or not, and
/// the other side's search goes on from there (Lichess 040Jq: ...Qxf1+
/// Kd2 ...Qxf2+ wins the pawn too; the king steps only where it may
/// stand). A mated side stops where it is: the search weighs material
/// only. Answers above `beta` return `beta`.
fn evade(board: &Board, us: Color, checkers: Bitboard, plies: u32, mut alpha: i32, beta: i32, scope: Scope) -> i32 {
    let Some(king) = board.king_of(us) else { return alpha.max(0) };
    let (occupied, ours) = (board.occupied(), board.by_color(us));
    // Every legal answer: king steps, captures of a lone checker, and
    // blocks of a slider's line (a pawn by a push), each asked whether it
    // leaves the king safe.
    // (A move list is filled without first clearing its room.)
    let mut answers = MoveList::new();
    let mut add = |role: Role, from: Square, to: Square| {
        if capture_leaves_king_safe(board, us, Some(king), checkers, role, from, to) {
            answers.push(Move::Normal { role, from, capture: None, to, promotion: None });
        }
    };
    for to in attacks::king_attacks(king) & !ours {
        add(Role::King, king, to);
    }
    if let Some(checker) = checkers.single_square() {
        let others = ours & !board.kings();
        for from in attackers(board, checker, us, occupied) & others {
            add(board.role_at(from).expect("a man"), from, checker);
        }
        let forward = us.fold_wb(8, -8);
        for to in attacks::between(checker, king) {
            for from in attackers(board, to, us, occupied) & others & !board.pawns() {
                add(board.role_at(from).expect("a man"), from, to);
            }
            // A pawn blocks by a push, one square or two from its rank.
            let pawns = others & board.pawns();
            let behind = to.offset(-forward).filter(|&sq| pawns.contains(sq));
            let double = to
                .offset(-forward)
                .filter(|&sq| !occupied.contains(sq) && to.rank() == us.fold_wb(Rank::Fourth, Rank::Fifth))
                .and_then(|sq| sq.offset(-forward))
                .filter(|&sq| pawns.contains(sq));
            if let Some(from) = behind.or(double) {
                add(Role::Pawn, from, to);
            }
        }
    }
    if answers.is_empty() {
        return alpha.max(0);
    }
    let last_rank = us.fold_wb(Rank::Eighth, Rank::First);
    for &answer in &answers {
        let Move::Normal { role, from, to, .. } = answer else { continue };
        let promotes = role == Role::Pawn && to.rank() == last_rank;
        let won = board.role_at(to).map_or(0, value) + if promotes { value(Role::Queen) - 1 } else { 0 };
        let mut after = board.clone();
        after.discard_piece_at(from);
        after.set_piece_at(to, if promotes { Role::Queen } else { role }.of(us));
        let check = checks_on(&after, us);
        // As in the search: a move nets at most what it takes, checks aside.
        if won <= alpha && !check {
            continue;
        }
        let net =
            won - capture_search(&after, !us, plies - 1, won - beta, won - alpha, scope.next(board, to, us), check);
        alpha = alpha.max(net);
        if alpha >= beta {
            return beta;
        }
    }
    alpha
}

/// What the move at `ply` gives up with the opponent's answer, as the
/// sacrifice detector reads it (below zero): a sacrifice's `gain`, which
/// the fire whose win repays it does not take off its own (Lichess 029wQ:
/// Qxe5 dxe5 gives 6, the Nf6+ fork that wins the queen back nets 10 with
/// the pawn its knight then wins, the line 3). `claimed`: the plies where
/// other fires count a capture in their own exchange
/// ([`counting_their_captures`]).
fn given(ply: Cursor, balances: &[i32], claimed: u128) -> Option<i16> {
    let mut last = ply.reply().unwrap_or(ply);
    // Where the answer captures, the captures that follow on its square
    // are the sacrifice's too, unless another tactic of ours takes there
    // and so counts the run as its own (Lichess 00vf5: Ndb5 axb5 Nxb5, a
    // knight for a pawn: -2; 07KyR: Re7 Bxe7 Rxe7 Qxe7 Qxe7, the last the
    // hanging queen's); not a threat never carried out (Lichess 0AmHt:
    // Nf6+ ...gxf6 exf6, whose discovered attack on the queen counts
    // nothing of the run: -2, not -3).
    if last.index() > ply.index() && last.mv().is_capture() {
        let square = last.mv().to();
        let run = || last.later().take_while(|at| at.mv().is_capture() && at.mv().to() == square);
        if !run().any(|at| at.is_solver() && among(claimed, at)) {
            last = run().last().unwrap_or(last);
        }
    }
    // A sacrifice that takes back where they just took counts from before
    // their capture: the trade on the square is even, and what the take-back
    // gives up is the sacrifice (Lichess 01Isj: ...Rxe1+ Rxe1 leaves the b6
    // bishop to cxb6: -3, not 2).
    let net = balances[last.index() + 1] - balances[exchange_start(ply).index()];
    i16::try_from(net).ok()
}

/// The plies where a fire counts its move's capture in its own exchange:
/// it gives material, or the line takes a man it names (with its own move
/// or a later one, its exchange then starting on its move). A sacrifice's
/// run on its square is another tactic's only where it meets one of these
/// ([`given`]).
fn counting_their_captures(fires: &[Fire], line: &Line) -> u128 {
    fires
        .iter()
        .filter(|f| {
            let at = || line.at(usize::from(f.ply));
            f.ply < 128
                && at().mv().is_capture()
                && (f.label.info().gives || collecting_capture(at(), men_to_win(&f.roles)).is_some())
        })
        .fold(0, |plies, f| plies | 1 << f.ply)
}

/// Whether the ply at `at` is one of `plies` (a set of ply indices, as
/// [`claimed_by_others`] makes).
fn among(plies: u128, at: Cursor) -> bool {
    at.index() < 128 && plies & (1 << at.index()) != 0
}

/// Whether `fire` wins material (a stake, or a material label) rather
/// than gives it.
fn wins_material(fire: &Fire) -> bool {
    (fire.stake.is_some() || fire.label.info().material) && !fire.label.info().gives
}

/// Whether `fire` wins or gives material.
fn moves_material(fire: &Fire) -> bool {
    fire.stake.is_some() || fire.label.info().material || fire.label.info().gives
}

/// The plies where a tactic other than the fire on `ply` wins or gives
/// material: a fire of a material or giving label or with a stake, on
/// another ply, that does not collect the win of `ply`.
fn claimed_by_others(fires: &[Fire], ply: u16) -> u128 {
    fires
        .iter()
        .filter(|f| f.ply != ply && f.ply < 128 && f.collects != Some(ply))
        .filter(|f| moves_material(f))
        .fold(0, |plies, f| plies | 1 << f.ply)
}

/// What the other side still nets by captures once the side to move in
/// `pos` saves `men` (one man of its own) as best it can; `None` where it
/// cannot. Not in check, it moves the man to a square the other side does
/// not then attack, and loses what the capture search finds of the men
/// that leaves en prise, the least over its escapes (Lichess 0BJDT: d5
/// unmasks the e3 bishop on the queen and hits the e6 bishop; ...Qc7 dxe6
/// fxe6: 2). It may also take a man of ours on a square we attack: a
/// trade, which nets us what we then take there less what it took (Lichess 01gA2: ...Rh8 shuts the h7 queen in, and Qxh8+ Qxh8
/// gives the queen for the rook: 4, not 9); the captures of their other
/// threatened men count only beside a square it may step to (03mei:
/// ...Bxf3+ Kxf3 leaves the d1 knight to the h1 rook). In check, it must
/// answer with nothing of its own left en prise (Lichess 0BuRD: ...exf2+
/// unmasks the queen on the e1 rook, and Kxf2 guards it; not 01Prn: Nxf6+
/// Qxf6 Qxf6 gxf6 leaves the d8 rook to the d1 rook).
fn escape(pos: &Chess, men: Bitboard, premise: &Chess) -> Option<i32> {
    let man = men.single_square()?;
    if !pos.us().contains(man) {
        return None;
    }
    if pos.is_check() {
        let saved = pos.legal_moves().iter().any(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            // Nothing of theirs left en prise, the man nor one behind it.
            let theirs = after.board().by_color(!after.turn()) & !after.board().kings();
            won_by_taking(after.board(), after.turn(), theirs).is_empty()
        });
        return saved.then_some(0);
    }
    let moves = pos.legal_moves();
    // Most often the threat is on the man alone: it steps away, and leaves
    // nothing that would need a search.
    let threatened = newly_hanging(pos.board(), !pos.turn(), premise.board()) | men;
    let alone = threatened == men;
    let (mut escapes, mut trades) = (MoveList::new(), MoveList::new());
    for &m in moves.iter().filter(|m| m.from() == Some(man)) {
        let mut after = pos.clone();
        after.play_unchecked(m);
        if attacked_by(after.board(), after.turn()).contains(m.to()) {
            // Lost there, but for what it takes on the way.
            if m.is_capture() {
                trades.push(m);
            }
            continue;
        }
        if alone || newly_hanging(after.board(), after.turn(), premise.board()).is_empty() {
            return Some(0);
        }
        escapes.push(m);
    }
    if escapes.is_empty() && trades.is_empty() {
        return None;
    }
    // Else the least our captures then net, over its escapes, its trades
    // and, where it has a square to go to, the captures by their other men
    // we threaten, less what those take (the search lets them stop once
    // we take back: right only where the man may then step away; 03mei's
    // ...Bxf3+ Kxf3 leaves the d1 knight with nowhere to go).
    let stepping = !escapes.is_empty();
    let others = moves.iter().filter(|m| {
        stepping && m.is_capture() && m.from().is_some_and(|from| from != man && threatened.contains(from))
    });
    escapes
        .iter()
        .chain(trades.iter())
        .chain(others)
        .map(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            let ours =
                best_captures_on(after.board(), after.turn(), m.to(), premise, &SetupHits::given(Bitboard::EMPTY));
            let promoted = m.promotion().map_or(0, |role| value(role) - value(Role::Pawn));
            ours - if m.is_capture() { captured_value(m) } else { 0 } - promoted
        })
        .min()
        .map(|least| least.max(0))
}

/// Where `men` (enemy men right after `ply`) stand once the line is over,
/// followed as the opponent moves them (none of them taken: a fire whose
/// man the line collects is settled by its exchange).
fn men_at_end(ply: Cursor, men: Bitboard) -> Bitboard {
    ply.later().filter(|at| !at.is_solver()).fold(men, |men, at| at.moves_along(men))
}

/// What a threat on `men` (enemy men right after `ply`), none of which the
/// line takes, still wins once the line is over with the opponent to move,
/// where it comes to nothing: 0 where none of them is attacked any more
/// (the threat was met on the way), or what the best escape of the one
/// that is leaves us ([`escape`]; Lichess 083dK: the queen dxe5 unmasks
/// takes the pawn and is safe; 04Dbs: Bb4 unmasks the queen on the d4
/// bishop, and the fork it makes is what wins), or the best answer of
/// several leaves us ([`escape_several`]). `None` where it stands.
fn left_at_end(ply: Cursor, men: Bitboard) -> Option<i32> {
    let end = ply.line().last().after();
    if end.turn() == ply.line().solver() {
        return None;
    }
    let threatened = men_at_end(ply, men) & end.us() & attacked_by(end.board(), !end.turn());
    if threatened.is_empty() {
        return Some(0);
    }
    let premise = ply.line().key().before();
    escape(end, threatened, premise).or_else(|| escape_several(end, threatened, premise))
}

/// What our captures still net once the side to move in `pos` (not in
/// check) saves what it can of `men`, two or more of its men we threaten:
/// the least over letting the threat be, the moves of the men we threaten
/// (here or newly since the key move) and the captures of the men that
/// threaten them, less what those take; never below 0 (Lichess 06ZIT: Ng3
/// unmasks the bishop on the queen and the queen on the e7 bishop, and hits
/// the f5 bishop; ...Qc7 guards e7, and Nxf5 follows: 3, not 9). `None`
/// for one man, which [`escape`] saves, or in check.
fn escape_several(pos: &Chess, men: Bitboard, premise: &Chess) -> Option<i32> {
    if pos.is_check() || !men.more_than_one() {
        return None;
    }
    let (board, them) = (pos.board(), !pos.turn());
    let threatened = newly_hanging(board, them, premise.board()) | men;
    let anywhere = men.first().expect("two men");
    let mut least = best_captures_on(board, them, anywhere, premise, &SetupHits::given(men));
    let attacking =
        threatened.into_iter().fold(Bitboard::EMPTY, |all, man| all | attackers(board, man, them, board.occupied()));
    let answers = pos.legal_moves();
    let answering = |m: &&Move| {
        m.from().is_some_and(|from| threatened.contains(from)) || (m.is_capture() && attacking.contains(m.to()))
    };
    for &m in answers.iter().filter(answering) {
        if least <= 0 {
            break;
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let followed = match m.from() {
            Some(from) if threatened.contains(from) => threatened.without(from).with(m.to()),
            _ => threatened,
        };
        // The man that moved, and those it leaves threatened, guarded or
        // not: a guard may be drawn off (...Qe6 guards both bishops, and
        // Nxf5 Qxf5 Qxe7 follows).
        let targets =
            (followed.with(m.to()) | newly_hanging(after.board(), after.turn(), premise.board())) & after.them();
        let ours = best_captures_of(after.board(), after.turn(), targets, None, premise, Some(&after), false);
        least = least.min(ours - if m.is_capture() { captured_value(m) } else { 0 });
    }
    Some(least.max(0))
}

/// Whether one of `men` (enemy men right after `ply`), followed as the
/// opponent moves them, takes a man of ours later in the line.
fn traded_itself(ply: Cursor, men: Bitboard) -> bool {
    let mut men = men;
    for at in ply.later().filter(|at| !at.is_solver()) {
        if at.mv().is_capture() && at.mv().from().is_some_and(|from| men.contains(from)) {
            return true;
        }
        men = at.moves_along(men);
    }
    false
}

/// Whether the man that captured on the move at `ply` keeps what it took:
/// the opponent does not take back at once, nor later without our taking
/// back on its square in turn, and it is not left en prise as the line
/// ends (Lichess 03K3h: Bxc3 takes the rook and falls seven moves on, the
/// exchange's and not a man won apart from the rest of the line).
fn keeps_its_capture(ply: Cursor) -> bool {
    let mut man = Bitboard::from_square(ply.mv().to());
    let mut later = ply.later().peekable();
    while let Some(at) = later.next() {
        let m = at.mv();
        if at.is_solver() {
            man = at.moves_along(man);
        } else if m.is_capture() && man.contains(m.to()) {
            // Taken: kept only where we take back there at once, the man
            // that does so ours to follow.
            if !later.peek().is_some_and(|ours| ours.mv().is_capture() && man.contains(ours.mv().to()))
                || at.index() == ply.index() + 1
            {
                return false;
            }
        }
    }
    let end = ply.line().last().after();
    end.turn() == ply.line().solver() || !won_by_taking(end.board(), end.turn(), man).any()
}

/// What the opponent takes, between the fire's move at `ply` and its
/// capture, of our men that stood hanging before the key move (attacked
/// and undefended; not put en prise by the setup move, `setup_hits`, which
/// the line's end shares), have not moved since
/// and play no part in the fire (on its `roles`' squares: a checker
/// given up is the tactic's price): the puzzle's premise, not the
/// tactic's loss (Lichess
/// 01FCo: Nc6+ forks, and ...Kxb7 takes the pawn the king attacked
/// already: the fork's queen for the knight, 6, not 5).
fn premise_taken_on_the_way(ply: Cursor, capture: Cursor, roles: &Roles, setup_hits: &SetupHits) -> i32 {
    // Most fires collect on their own move: no capture of theirs between.
    if capture.index() <= ply.index() + 1 {
        return 0;
    }
    let parts = OnceCell::new();
    let plays_a_part = |square: Square| {
        parts.get_or_init(|| roles.iter().fold(Bitboard::EMPTY, |parts, (_, squares)| parts | squares)).contains(square)
    };
    ply.later()
        .take_while(|at| at.index() < capture.index())
        .filter(|at| !at.is_solver() && at.mv().is_capture() && !plays_a_part(capture_square(at.mv())))
        .filter(|&at| takes_premise(at, setup_hits))
        .map(|at| captured_value(at.mv()))
        .sum()
}

/// What their late take-backs between the fire's move and its collecting
/// `capture` take of the men our captures on earlier fires' moves put
/// there, where such a fire (among `settled`, the fires before this one)
/// won material and so counts the take-back in its exchange already
/// (Lichess 0AfWu: ...gxf4 takes the rook, and exf4 after Qc3+ ...Kg8 is
/// that exchange's; the trap of ...Kg8 nets the knight ...Qxf8 takes, 3,
/// not 2).
fn retaken_on_the_way(ply: Cursor, capture: Cursor, settled: &[Fire]) -> i32 {
    // Most fires collect on their own move: no capture of theirs between.
    if capture.index() <= ply.index() + 1 || settled.iter().all(|f| f.gain.is_none_or(|gain| gain <= 0)) {
        return 0;
    }
    ply.later()
        .take_while(|at| at.index() < capture.index())
        .filter(|&at| !at.is_solver() && at.mv().is_capture() && takes_back_late(at))
        .filter(|at| {
            let square = at.mv().to();
            std::iter::successors(at.previous(), |p| p.previous())
                .find(|p| p.mv().to() == square || p.mv().from() == Some(square))
                .is_some_and(|ours| {
                    ours.index() < ply.index()
                        && settled.iter().any(|f| {
                            usize::from(f.ply) == ours.index()
                                && f.collects.is_none()
                                && f.gain.is_some_and(|gain| gain > 0)
                                && wins_material(f)
                        })
                })
        })
        .map(|at| captured_value(at.mv()))
        .sum()
}

/// Where our capture at `ply` takes back, late, the man of theirs that
/// took one of ours on its square since the key move, moves elsewhere
/// between (an in-between move of ours and its answer), that capture of
/// theirs: the exchange on the square began there, and our take-back wins
/// only what it takes beyond what it answers (Lichess 02rFZ: Qa4 ...Nxc4
/// exd7 ...Qxd7 Qxc4 takes the knight back for the bishop: 0, not 3).
///
/// Only where their capture answered a quiet move of ours and took what
/// the line risked ([`took_what_the_line_risked`]), no fire before ours
/// names the square with a gain (a counter-threat's man left en prise,
/// 05KTd; a fork's target that took, 0BTeI: that fire's), and no fire of
/// ours between won as much as it took. One that answers a capture of
/// ours, or that a fire between pays back, is a trade on two squares,
/// counted there (02gWU: Rxd1 ...Bxf6 Rxf1+ ...Kxf1 gxf6, the queens
/// traded and the bishop won: 3; 0AOzw: Qh1+ ...Rxh1 Bxd5+ takes the queen
/// back, and Bxh1 the rook: 5).
fn their_capture_taken_back_late<'a>(
    ply: Cursor<'a>,
    setup_hits: &SetupHits,
    sacrifices: &[bool; 128],
    settled: &[Fire],
) -> Option<Cursor<'a>> {
    let square = ply.mv().to();
    let key = ply.line().key_ply;
    let theirs = std::iter::successors(ply.previous(), |at| at.previous())
        .take_while(|at| at.index() > key)
        .find(|at| at.mv().to() == square || at.mv().from() == Some(square))?;
    let m = theirs.mv();
    let lost = captured_value(m);
    let answered_quiet_move = theirs.index() + 1 < ply.index()
        && !theirs.is_solver()
        && m.is_capture()
        && m.to() == square
        && theirs.previous().is_some_and(|ours| !ours.mv().is_capture());
    (answered_quiet_move
        && !settled.iter().any(|f| {
            let at = usize::from(f.ply);
            let names_it = f.gain.is_some() && f.roles.iter().any(|(_, squares)| squares.contains(square));
            at < ply.index()
                && (names_it || (at > theirs.index() && f.gain.is_some_and(|gain| i32::from(gain) >= lost)))
        })
        && took_what_the_line_risked(theirs, setup_hits, sacrifices))
    .then_some(theirs)
}

/// Whether their capture at `theirs` took a man of ours that the line
/// risked, not one it gave or the puzzle's premise: the man stood on its
/// square since before the key move (no move of the line offered it), no
/// sacrifice of the line came before (the man is then the sacrifice's
/// loss), the capture is no late take-back of a capture of ours, and the
/// man did not hang before the key move.
fn took_what_the_line_risked(theirs: Cursor, setup_hits: &SetupHits, sacrifices: &[bool; 128]) -> bool {
    let key = theirs.line().key_ply;
    stood_since_key(theirs, theirs.mv().to())
        && !sacrifices[key.min(127)..theirs.index().min(127)].contains(&true)
        && !takes_back_late(theirs)
        && !takes_premise(theirs, setup_hits)
}

/// Where their capture just before our capture at `ply` took a man of ours
/// elsewhere, worth more than anything our move before it took, and the
/// run of captures our move starts takes their man back there: that
/// capture, which the run answers (Lichess 0BuQl: Nxf6 ...Qxf3 takes the
/// queen, and Nxe8+ ...Rxe8 gxf3 takes it back: 2, not 11). Not where it
/// takes back ours, where a fire before ours names that man as one to win
/// or as threatened, nor where it took what the line did not risk
/// ([`took_what_the_line_risked`]).
fn their_capture_taken_back_in_the_run<'a>(
    ply: Cursor<'a>,
    setup_hits: &SetupHits,
    sacrifices: &[bool; 128],
    settled: &[Fire],
) -> Option<Cursor<'a>> {
    let key = ply.line().key_ply;
    let theirs = ply
        .previous()
        .filter(|theirs| theirs.index() > key && theirs.mv().is_capture() && theirs.mv().to() != ply.mv().to())?;
    let (m, there) = (theirs.mv(), theirs.mv().to());
    let lost = captured_value(m);
    let taken_back = || {
        ply.later()
            .take_while(|at| at.mv().is_capture() && at.mv().from() != Some(there))
            .any(|at| at.is_solver() && at.mv().to() == there)
    };
    (theirs.previous().is_some_and(|ours| captured_value(ours.mv()) < lost)
        && theirs.run_before().next().is_none()
        && taken_back()
        && !settled.iter().any(|f| {
            usize::from(f.ply) < ply.index()
                && f.gain.is_some()
                && (men_to_win(&f.roles) | f.roles.get(RoleName::threatened)).contains(there)
        })
        && took_what_the_line_risked(theirs, setup_hits, sacrifices))
    .then_some(theirs)
}

/// Whether their capture at `at` takes a man of ours that is the puzzle's
/// premise: it stood hanging before the key move (attacked and
/// undefended) and on its square since, and the setup move did not put it
/// en prise ([`setup_hits`]), which would make it the puzzle's business.
fn takes_premise(at: Cursor, setup_hits: &SetupHits) -> bool {
    let line = at.line();
    let square = capture_square(at.mv());
    stood_since_key(at, square)
        && hanging(line.key().before().board(), !line.solver(), Bitboard::from_square(square)).any()
        && !setup_hits.get().contains(square)
}

/// Whether the man that moved at `ply` makes `capture`, our next move,
/// the opponent's answer in between taking nothing.
fn makes_the_capture(ply: Cursor, capture: Cursor) -> bool {
    ply.next_own().is_some_and(|next| next.index() == capture.index())
        && ply.reply().is_some_and(|reply| !reply.mv().is_capture())
        && capture.mv().from() == Some(ply.mv().to())
}

/// What the move at `ply` nets by its own capture, for a fire whose threat
/// came to nothing: all it won (Lichess 09YuP: Bxe4 takes the knight and
/// unmasks the f3 queen on the c3 queen, which steps away: 3), less what
/// the opponent's answer takes (0CVKY: ...exd3 takes the queen, and Rxe5
/// ours: 0). Nothing where it takes back what the opponent just took
/// (their exchange: 045rD ...fxe4 after Qxe4), or where the man that took
/// falls later (04qgk: Nxe6 takes the bishop, and the f7 pawn takes the
/// knight).
fn took(ply: Cursor, balances: &[i32]) -> i32 {
    let m = ply.mv();
    let on_its_square = |at: Cursor| at.mv().is_capture() && at.mv().to() == m.to();
    if !m.is_capture() || ply.previous().is_some_and(on_its_square) {
        return 0;
    }
    // Their answer that takes a man of ours is charged, but not one we take
    // back at once: that exchange is the next fire's (Lichess 077Ya: dxe5,
    // then ...Rxg2+ Qxg2).
    let taken_back =
        |reply: Cursor| reply.reply().is_some_and(|ours| ours.mv().is_capture() && ours.mv().to() == reply.mv().to());
    match ply.reply() {
        Some(reply) if on_its_square(reply) || (reply.mv().is_capture() && !taken_back(reply)) => {
            balances[reply.index() + 1] - balances[ply.index()]
        }
        _ if keeps_its_capture(ply) => balances[ply.index() + 1] - balances[ply.index()],
        _ => 0,
    }
}

/// The quiet move of ours before `ply` whose threat `ply`'s capture carries
/// out, where no fire of that move wins or gives material and the
/// opponent answered with a grab elsewhere: the move attacked the man
/// `ply` takes (or lined up on it behind the man that grabbed), which stood
/// there unattacked before it, and the answer took a man of ours (not one
/// that had just taken). The capture counts
/// from before that move, the grab charged (Lichess 04e0U: e5 attacks the
/// queen, ...Rxc1 takes a rook, exf6: 4, not 9).
fn unclaimed_threat<'a>(ply: Cursor<'a>, fires: &[Fire]) -> Option<Cursor<'a>> {
    let m = ply.mv();
    let theirs = ply.previous().filter(|theirs| m.is_capture() && theirs.mv().is_capture())?;
    let threat =
        theirs.previous().filter(|threat| threat.index() >= ply.line().key_ply && !threat.mv().is_capture())?;
    if exchange_start(ply).index() != ply.index() {
        return None;
    }
    let (man, solver) = (capture_square(m), ply.line().solver());
    let (before, after) = (threat.before().board(), threat.after().board());
    // A quiet threat, and a grab in answer that takes back nothing of ours:
    // no move of ours since the key move captured where it captures.
    let took_there = |at: Cursor| at.is_solver() && at.mv().is_capture() && at.mv().to() == theirs.mv().to();
    let made = !theirs.since_key().any(took_there)
        && before.by_color(!solver).contains(man)
        && !attacked_by(before, solver).contains(man)
        && (attacked_by(after, solver).contains(man) || {
            // Or through the man their grab moved off the line (Lichess
            // 082g9: Qc8 hits the d7 rook and the queen behind it, ...Rxc7).
            let grabbed = theirs.after().board();
            attackers(grabbed, man, solver, grabbed.occupied()).contains(threat.mv().to())
        })
        && theirs.mv().from() != Some(man);
    let claimed = fires.iter().any(|f| usize::from(f.ply) == threat.index() && moves_material(f));
    (made && !claimed).then_some(threat)
}

/// The men [`first_targets`] takes as the puzzle's business though they
/// stood en prise before the key move: [`setup_hits`], found where first
/// asked (most lines end with no such man en prise), or given; and those
/// the line saved a while and gave up again ([`SetupHits::relapsed`]).
struct SetupHits<'a> {
    line: Option<&'a Line>,
    found: OnceCell<Bitboard>,
    /// The squares [`SetupHits::relapsed`] was asked of, and those it found.
    saved_a_while: Cell<(Bitboard, Bitboard)>,
}

impl<'a> SetupHits<'a> {
    fn of(line: &'a Line) -> SetupHits<'a> {
        SetupHits { line: Some(line), found: OnceCell::new(), saved_a_while: Cell::default() }
    }

    fn given(men: Bitboard) -> SetupHits<'a> {
        SetupHits { line: None, found: OnceCell::from(men), saved_a_while: Cell::default() }
    }

    fn get(&self) -> Bitboard {
        *self.found.get_or_init(|| self.line.map_or(Bitboard::EMPTY, setup_hits))
    }

    /// Those of `men`, our men en prise before the key move, that a move of
    /// ours in the line saved a while: en prise before that move, and after
    /// it, the opponent not in check, standing on its square with no capture
    /// of it that pays (a static exchange, x-rays read, pins not: a taker
    /// pinned for a move saves nothing). The line gave them up again, so
    /// they are no premise (Lichess 03fk0: Qh5 guards the h7 bishop the h8
    /// king hits, Qxg5 leaves it, and ...Kxh7 takes it: 6, not 9). A man is
    /// matched by its kind on its square, as the premise matches men. Read
    /// over the whole line (the moves before its last), so asked only
    /// against the key move's premise (the same board): a desperado's cut
    /// mid-line has another. Each square is asked once a line.
    fn relapsed(&self, now: &Board, premise: &Board, men: Bitboard) -> Bitboard {
        let Some(line) = self.line else { return Bitboard::EMPTY };
        let start = line.key().before().board();
        let men = men & start.by_color(line.solver());
        if men.is_empty() || *premise != *start {
            return Bitboard::EMPTY;
        }
        let (mut asked, mut found) = self.saved_a_while.get();
        for man in men & !asked {
            let Some(piece) = start.piece_at(man) else { continue };
            // Whether a capture of the man pays on `board`.
            let en_prise = |board: &Board| {
                let by = attackers(board, man, !piece.color, board.occupied());
                least_valuable(board, by).is_some_and(|(taker, _)| see(board, taker, man, value(piece.role)) > 0)
            };
            let ours = std::iter::once(line.key()).chain(line.key().later()).step_by(2);
            let saved = ours.take_while(|at| at.reply().is_some()).any(|at| {
                let (before, after) = (at.before().board(), at.after().board());
                after.piece_at(man) == Some(piece)
                    && !at.gives_check()
                    && !en_prise(after)
                    && before.piece_at(man) == Some(piece)
                    && en_prise(before)
            });
            if saved {
                found.add(man);
            }
        }
        asked |= men;
        self.saved_a_while.set((asked, found));
        (found & men).into_iter().filter(|&man| now.piece_at(man) == start.piece_at(man)).collect()
    }
}

/// Our men the setup move puts en prise (the king aside): the puzzle's
/// business, where they stand as the line ends, as no man en prise before
/// it is. Its piece hits them (Lichess 06etG: h6 hits the g7 bishop,
/// ...Qh5+ Qh3 ...Qxg6 wins the rook, and hxg7 Kxg7 follows: 3, not 5), it
/// opens a line or a battery onto them (03Q8z: ...e5 opens the d7 bishop on
/// h3; 054n8: Qc2 backs the d3 bishop on h7), or it takes or blocks their
/// guard (046Sy: ...Bxe4 takes the rook that guards e5; 0Ak4D: ...g6 shuts
/// the b1 queen off h7).
fn setup_hits(line: &Line) -> Bitboard {
    let Some(setup) = line.key().previous() else { return Bitboard::EMPTY };
    let (before, after) = (setup.before().board(), setup.after().board());
    let us = line.solver();
    let now = won_by_taking(after, !us, after.by_color(us) & !after.kings());
    if now.is_empty() {
        return now;
    }
    now & !won_by_taking(before, !us, now)
}

/// Sets `gain` on `fires` (every fire of one line): the net where the line
/// collects, the detector's stake where it does not. `balances` are the
/// line's ([`crate::facts::balances`]).
///
/// None where the line mates: the mate is the point, and what was taken or
/// given on the way to it is not what the tactic nets (Lichess 07kQI:
/// Rxd1+ Qe1 Rxe1#, no rook won; 054S8: ...Qxf2+ Rxf2 Rxe1+ Rf1 Rexf1#,
/// neither the queen given nor the rook taken).
pub fn settle(line: &Line, balances: &[i32], fires: &mut [Fire]) {
    if line.last().mates() {
        for fire in fires {
            fire.gain = None;
        }
        return;
    }
    // The plies a sacrifice fire stands on.
    let mut sacrifices = [false; 128];
    for f in fires.iter().filter(|f| f.label.info().gives) {
        sacrifices[usize::from(f.ply).min(127)] = true;
    }
    // The plies where a fire wins material, other than by collecting an
    // earlier fire's win (whose exchange may stop short of the next fire's).
    let wins = fires
        .iter()
        .filter(|f| f.ply < 128 && wins_material(f) && f.collects.is_none())
        .fold(0u128, |plies, f| plies | 1 << f.ply);
    let fired = fires.iter().filter(|f| f.ply < 128).fold(0u128, |plies, f| plies | 1 << f.ply);
    // The plies where a fire names the man its move takes, or gives
    // material (a sacrifice is charged what follows its move): asked only
    // of a retake by another fire, so only where fires stand on two plies.
    let named_takes = if fired.count_ones() < 2 {
        0
    } else {
        fires
            .iter()
            .filter(|f| {
                f.ply < 128
                    && (f.label.info().gives || f.stake.is_some() || {
                        let m = line.at(usize::from(f.ply)).mv();
                        m.is_capture() && men_to_win(&f.roles).contains(capture_square(m))
                    })
            })
            .fold(0u128, |plies, f| plies | 1 << f.ply)
    };
    // Asked only where a sacrifice is charged, once.
    let counting = OnceCell::new();
    let end = LineEnd { hits: SetupHits::of(line), pending: RefCell::default() };
    // Fires of one ply most often collect with the same capture.
    let mut settled = [((0, false, 0, 0), 0); 8];
    let mut known = 0;
    for i in 0..fires.len() {
        let ply = line.at(usize::from(fires[i].ply));
        let info = fires[i].label.info();
        if info.gives {
            let claimed = claimed_by_others(fires, fires[i].ply);
            let counting =
                if claimed == 0 { 0 } else { *counting.get_or_init(|| counting_their_captures(fires, line)) };
            fires[i].gain = given(ply, balances, claimed & counting);
            continue;
        }
        if fires[i].stake.is_none() && !info.material {
            continue;
        }
        let claimed = claimed_by_others(fires, fires[i].ply);
        // The man our move takes is the fire's that names it, where there
        // is one (both uses below).
        // So is a man an earlier fire of ours names, which this move
        // collects for it (Lichess 01VBW: Ng6+ forks the f8 rook, and Nxf8+
        // takes it with a discovered attack on the queen: the discovery
        // nets the queen, not the rook again).
        let capture_named_elsewhere = ply.mv().is_capture() && {
            let taken = capture_square(ply.mv());
            let names = |f: &Fire| men_to_win(&f.roles).contains(taken);
            // This move is the capture that collects an earlier fire's win.
            let named_earlier = |f: &Fire| {
                let at = line.at(usize::from(f.ply));
                let men = men_to_win(&f.roles) & !(at.after().board().kings());
                collecting_capture(at, men).is_some_and(|c| c.index() == ply.index())
            };
            !names(&fires[i])
                && fires.iter().any(|f| {
                    f.label != fires[i].label
                        && wins_material(f)
                        && ((f.ply == fires[i].ply && names(f))
                            || (f.ply < fires[i].ply && fires[i].collects.is_none() && named_earlier(f)))
                })
        };
        // Whether our move goes on with a run on its square that an earlier
        // fire started by taking a man it names: the run is that fire's
        // (Lichess 07gRJ: ...Nxh3+ Bxh3 ...Qxh3 is the first fire's pawn,
        // and the double attack of ...Qxh3 nets what follows: 4, not 5).
        // The cheap tests first: a win earlier, their capture on our square.
        let earlier_run = fires[i].collects.is_none()
            && wins & ((1u128 << fires[i].ply.min(127)) - 1) != 0
            && ply.mv().is_capture()
            && ply.previous().is_some_and(|theirs| theirs.mv().is_capture() && theirs.mv().to() == ply.mv().to())
            && {
                let run = exchange_start(ply);
                run.index() < ply.index()
                    && among(wins, run)
                    && fires.iter().any(|f| {
                        usize::from(f.ply) == run.index()
                            && wins_material(f)
                            && men_to_win(&f.roles).contains(capture_square(run.mv()))
                    })
            };
        let gives_on_the_move = fires.iter().any(|f| f.ply == fires[i].ply && f.label.info().gives);
        let counting =
            if gives_on_the_move { *counting.get_or_init(|| counting_their_captures(fires, line)) } else { 0 };
        let wins_on_the_move =
            fires.iter().any(|f| f.ply == fires[i].ply && f.label != fires[i].label && wins_material(f));
        let unclaimed_threat = unclaimed_threat(ply, fires);
        let later_win =
            gives_on_the_move && fires.iter().any(|f| f.ply > fires[i].ply && f.collects.is_none() && wins_material(f));
        let (settled_fires, rest) = fires.split_at_mut(i);
        let fire = &mut rest[0];
        // Kings never count, theirs: our king may stand where it took.
        let board = ply.after().board();
        let men = men_to_win(&fire.roles) & !(board.kings() & board.by_color(!line.solver()));
        // Each exchange (its capture, the tactics' plies its checks stop
        // before, if it runs through them, where it began) is settled once.
        let mut balance_after = |capture: Cursor, through_checks: Option<u128>, start: Cursor| {
            let key = (capture.index(), through_checks.is_some(), start.index(), claimed);
            if let Some(&(_, balance)) = settled[..known].iter().find(|&&(k, _)| k == key) {
                return balance;
            }
            let balance = balance_after_exchange(
                capture,
                through_checks,
                claimed,
                named_takes,
                premise_of(start),
                &end,
                balances,
            );
            if known < settled.len() {
                settled[known] = (key, balance);
                known += 1;
            }
            balance
        };
        fire.gain = match collecting_capture(ply, men) {
            // Taken only by a later sacrifice: the loss is the sacrifice's,
            // and the tactic won nothing of its own (Lichess 059XJ: Qd8+
            // forks, and Qxf6+ Kxf6 gives the queen for the knight: 0).
            Some(capture) if capture.index() > ply.index() && sacrifices[capture.index().min(127)] => Some(0),
            Some(capture) => {
                // A tactic that sets up a later capture collects through the
                // checks it takes to get there; one that is the capture
                // nets its own exchange.
                let through_checks = (capture.index() > ply.index()).then_some(claimed);
                let start = match unclaimed_threat {
                    Some(threat) if capture.index() == ply.index() => threat,
                    _ if capture.index() == ply.index() => {
                        trade_start(ply, wins, fired).unwrap_or_else(|| exchange_start(ply))
                    }
                    _ => exchange_start(ply),
                };
                // A run that starts with their capture of the man a sacrifice
                // gave is counted from after it: the sacrifice is charged
                // that man (Lichess 08Ao7: Re3 is the sacrifice's -5, fxe3
                // takes it, and the Nxe3+ fork wins the queen: 7, not 2).
                let start = match start.previous() {
                    Some(given)
                        if !start.is_solver()
                            && sacrifices[given.index().min(127)]
                            && given.mv().to() == start.mv().to() =>
                    {
                        start.reply().unwrap_or(start)
                    }
                    _ => start,
                };
                // Where another fire names the man our move took and no one
                // takes it back, this one counts from after the move
                // (Lichess 09KlA: gxh6 takes the queen, the hanging piece's,
                // and unmasks the g8 rook on the g3 rook, which is traded:
                // the discovery nets 0, not 9).
                // The man that took may fall in this fire's own exchange,
                // having made its capture on our next move (Lichess 08i3m:
                // Nxe7+ takes the pawn, the hanging piece's, and forks; Nxf5
                // gxf5 trades the knight for the queen: the fork nets 6, the
                // pawn is not its).
                let keeps = || keeps_its_capture(ply) || makes_the_capture(ply, capture);
                // So where its move goes on with an earlier fire's run.
                let theirs = capture_named_elsewhere || (earlier_run && start.index() < ply.index());
                let from = if theirs && keeps() { ply.index() + 1 } else { start.index() };
                // Our take-back of their capture, late or in our run, answers
                // it: asked of a capture counted from its own move alone.
                let answered = if [capture.index(), start.index(), from] == [ply.index(); 3] {
                    their_capture_taken_back_late(ply, &end.hits, &sacrifices, settled_fires)
                        .or_else(|| their_capture_taken_back_in_the_run(ply, &end.hits, &sacrifices, settled_fires))
                        .map_or(0, |theirs| captured_value(theirs.mv()))
                } else {
                    0
                };
                let net = balance_after(capture, through_checks, start) - balances[from]
                    + premise_taken_on_the_way(ply, capture, &fire.roles, &end.hits)
                    + retaken_on_the_way(ply, capture, settled_fires)
                    - answered;
                // What a sacrifice on the move gives up is the sacrifice's:
                // a fire whose own exchange does not repay it nets what it
                // wins besides (Lichess 06tA5: Rb7 gives the rook, and the
                // deflection wins the d6 pawn: 1, not -4); so does one whose
                // moving man the answer takes, where no other tactic wins
                // before its capture (06WdM: ...Nf3+ Rxf3, and the fork's
                // ...Re1+ Qxe1 ...Qxe1+: 4, not 1).
                let gave_the_mover = || {
                    ply.reply().is_some_and(|r| r.mv().is_capture() && r.mv().to() == ply.mv().to())
                        && from <= ply.index()
                        && ply.later().take_while(|at| at.index() <= capture.index()).all(|at| !among(claimed, at))
                };
                let net = if gives_on_the_move && (net < 0 || gave_the_mover()) {
                    net - given(ply, balances, claimed & counting).map_or(0, i32::from)
                } else {
                    net
                };
                i16::try_from(net).ok()
            }
            // A threat met by the line's end, or on one man that may then
            // step away, wins what the escape leaves and what its move took,
            // where no other fire of the move names that man or gives
            // material. Where a sacrifice on the move is charged and a later
            // fire of ours wins material, what the line's end leaves is that
            // fire's, its exchange running there (Lichess 038Be: ...Nxc3
            // gives the queen, the e4 rook escapes by taking it, and the
            // loose h4 rook is Ne2+'s: 0, not 2).
            None if let Some(left) = fire.stake.and_then(|_| left_at_end(ply, men)) => {
                let left = if later_win { 0 } else { left };
                i16::try_from(left + if wins_on_the_move || gives_on_the_move { 0 } else { took(ply, balances) }).ok()
            }
            // A threatened man that took a man of ours met the threat by
            // trading: where the line ends with our check, whose answers the
            // capture search reads, the line from the move says what came of
            // it (Lichess 07b7A: Nxg5 unmasks the g6 queen on the c2 queen,
            // which takes it, Nxf3+, and hxg6 is to come: the bishop, 3).
            None if fire.stake.is_some() && line.last().gives_check() && traded_itself(ply, men) => {
                i16::try_from(balance_after(line.last(), None, ply) - balances[ply.index()]).ok()
            }
            None => fire.stake,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{legal_plain_move_with, position};
    use crate::tactics::testing::fire_on;

    /// Whether a capture read off the board (`checkers` the pieces giving
    /// check) is legal, shakmaty's way.
    fn is_legal(pos: &Chess, m: Move, checkers: Bitboard) -> bool {
        checkers.more_than_one()
            || m.from().is_some_and(|from| legal_plain_move_with(pos, from, m.to(), m.promotion(), checkers).is_some())
    }

    /// [`capture_search`] as first written: on a `Chess`, every capture
    /// listed, then sorted, the last ply ordered like the others and a
    /// capture there counted by its exchange; a side in check lists every
    /// legal move and may not stop.
    fn capture_search_slowly(pos: &Chess, plies: u32, mut alpha: i32, beta: i32, scope: Scope) -> i32 {
        if plies == 0 {
            return alpha.max(0);
        }
        let in_check = pos.is_check();
        if !in_check {
            alpha = alpha.max(0);
            if alpha >= beta {
                return alpha;
            }
        }
        // Where the first captures are held to targets, a capture of another
        // man may come first with check, where it loses nothing by its
        // exchange and the man did not stand en prise in the premise.
        let (victims, off_targets) = match scope {
            Scope::Targets { men, loose, premise_off, .. } => (
                if premise_off { men & !loose.premise_men() } else { men },
                !men & !won_by_taking(loose.premise, pos.turn(), !men),
            ),
            Scope::Answers { .. } => (Bitboard::FULL, Bitboard::EMPTY),
        };
        let checkers = pos.checkers();
        let mut moves = MoveList::new();
        if in_check {
            moves
                .extend(pos.legal_moves().into_iter().filter(|m| m.promotion().is_none_or(|role| role == Role::Queen)));
            if moves.is_empty() {
                return alpha.max(0);
            }
        } else {
            let board = pos.board();
            let last_rank = pos.turn().fold_wb(Rank::Eighth, Rank::First);
            for sq in pos.them() & (victims | off_targets) {
                for from in attackers(board, sq, pos.turn(), board.occupied()) {
                    if off_targets.contains(sq) && see(board, from, sq, board.role_at(sq).map_or(0, value)) < 0 {
                        continue;
                    }
                    let role = board.role_at(from).unwrap();
                    let promotion = (role == Role::Pawn && sq.rank() == last_rank).then_some(Role::Queen);
                    moves.push(Move::Normal { role, from, capture: board.role_at(sq), to: sq, promotion });
                }
            }
        }
        moves.sort_by_key(|m| (-captured_value(*m), m.role() as u8));
        for m in &moves {
            let won = captured_value(*m) + m.promotion().map_or(0, |role| value(role) - 1);
            if !is_legal(pos, *m, checkers) {
                continue;
            }
            let mut after = pos.clone();
            after.play_unchecked(*m);
            if won <= alpha && !after.is_check() {
                continue;
            }
            if !in_check
                && !scope.allows(pos.board(), pos.turn(), m.from().unwrap(), capture_square(*m))
                && !after.is_check()
            {
                continue;
            }
            let next = scope.next(pos.board(), m.to(), pos.turn());
            let left = if !in_check && after.is_check() { plies.max(2) - 1 } else { plies - 1 };
            let net = if plies == 1 && !in_check && !after.is_check() && m.promotion().is_none() {
                see(pos.board(), m.from().unwrap(), m.to(), won).min(beta)
            } else {
                won - capture_search_slowly(&after, left, won - beta, won - alpha, next)
            };
            if net > alpha {
                alpha = net;
                if alpha >= beta {
                    return if in_check { beta } else { alpha };
                }
            }
        }
        alpha
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]
        /// On positions from random games, the capture search nets what
        /// listing and sorting every capture nets, for every depth, for all
        /// targets and for each enemy man alone, in narrow windows too.
        #[test]
        fn capture_search_agrees_with_the_listing_one(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..120), window in 0i32..12) {
            for pos in crate::board::random_game(start, &picks) {
                // Every man of the measured side that hangs is loose for the other to take.
                let found = Found::default();
                let empty = Board::empty();
                let loose = Loose { end: pos.board(), premise: &empty, to_move: pos.turn(), found: &found, took: Bitboard::EMPTY };
                for targets in std::iter::once(Bitboard::FULL).chain(pos.them().into_iter().map(Bitboard::from_square)) {
                    for plies in 1..=CAPTURE_SEARCH_PLIES {
                        for (alpha, beta) in [(0, i32::MAX / 2), (window / 2, window)] {
                            proptest::prop_assert_eq!(
                                capture_search(pos.board(), pos.turn(), plies, alpha, beta, Scope::root(targets, loose), pos.is_check()),
                                capture_search_slowly(&pos, plies, alpha, beta, Scope::root(targets, loose))
                            );
                        }
                    }
                }
            }
        }
    }

    /// [`best_answer_to_check`] as first written: every answer that leaves
    /// the other side something to take played and searched in full, the
    /// best taken.
    fn best_answer_to_check_slowly(pos: &Chess, targets: Bitboard, premise: &Chess) -> i32 {
        let board = pos.board();
        let left_hanging = newly_hanging(board, !pos.turn(), premise.board()) | guarded_by_the_king_alone(pos);
        let promoting = pos.our(Role::Pawn) & Bitboard::from_rank(pos.turn().fold_wb(Rank::Seventh, Rank::Second));
        if left_hanging.is_empty()
            && promoting.is_empty()
            && targets.into_iter().all(|sq| attackers(board, sq, pos.turn(), board.occupied()).is_empty())
        {
            return 0;
        }
        // Each answer's net, and whether the checking side then mates in one.
        let nets = pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let counts = m.is_capture() && targets.contains(capture_square(m));
                let mut answered = left_hanging;
                if let Some(from) = m.from().filter(|&from| answered.contains(from)) {
                    answered.discard(from);
                    answered.add(m.to());
                }
                if counts {
                    answered.add(m.to());
                }
                let taken =
                    if counts { captured_value(m) } else { 0 } + m.promotion().map_or(0, |role| value(role) - 1);
                let mut after = pos.clone();
                after.play_unchecked(m);
                answered |= newly_hanging(after.board(), after.turn(), pos.board());
                let allows_mate = after.legal_moves().iter().any(|&mate| {
                    let mut mated = after.clone();
                    mated.play_unchecked(mate);
                    mated.is_checkmate()
                });
                let fork = if counts && m.role() == Role::King && !after.is_check() {
                    forking_check(&after, premise, false, true)
                } else {
                    0
                };
                if answered.is_empty() {
                    return (taken, allows_mate);
                }
                let found = Found::default();
                let loose = Loose::new(after.board(), premise, &found);
                let scope = Scope::root(answered & after.them(), loose);
                let net = taken
                    - capture_search(
                        after.board(),
                        after.turn(),
                        CAPTURE_SEARCH_PLIES,
                        0,
                        i32::MAX / 2,
                        scope,
                        after.is_check(),
                    )
                    .max(fork);
                (net, allows_mate)
            })
            .collect::<Vec<_>>();
        let only = nets.len() == 1;
        let safe = nets.iter().filter(|&&(_, mate)| only || !mate).map(|&(net, _)| net).max();
        safe.or_else(|| nets.iter().map(|&(net, _)| net).max()).unwrap_or(0)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, failure_persistence: None, ..Default::default() })]
        /// On positions in check from random games, the answer to the check
        /// that skips answers that cannot beat the best so far nets what
        /// playing and searching every answer nets, against the start
        /// position and against the position itself as premise.
        #[test]
        fn the_best_answer_to_check_agrees_with_trying_every_one(start in 0usize..2, picks in proptest::collection::vec(0usize..1000, 1..160)) {
            for pos in crate::board::random_game(start, &picks).into_iter().filter(|pos| pos.is_check()) {
                for premise in [Chess::default(), pos.clone()] {
                    for targets in [Bitboard::FULL, pos.them() & !pos.board().pawns()] {
                        proptest::prop_assert_eq!(
                            best_answer_to_check(&pos, targets, &premise),
                            best_answer_to_check_slowly(&pos, targets, &premise)
                        );
                    }
                }
            }
        }
    }

    /// The `gain` of the `label` fire on `ply`.
    fn gain(fen: &str, moves: &str, ply: u16, label: &str) -> Option<i16> {
        fire_on(fen, moves, ply, label).gain
    }

    /// A tactic on the mating move nets nothing: the mate is the point
    /// (Lichess 00KgR: Qh7# unmasks the rook on f1 against the rook on f6,
    /// which the discovery would otherwise count).
    #[test]
    fn a_tactic_on_the_mating_move_has_no_gain() {
        let fen = "5r1k/1pq3p1/2p2P1p/3pPQ2/1p1P4/7P/1rB4K/5R2 b - - 1 35";
        assert_eq!(gain(fen, "f8f6 f5h7", 1, "discoveredAttack"), None);
    }

    #[test]
    fn a_won_piece_that_is_taken_back_nets_the_difference() {
        // Lichess 001xl: Rf7+ skewers king and queen; Rxf4 takes the queen,
        // which the king then takes back: 9 for the rook's 5.
        assert_eq!(gain("8/4R1k1/p5pp/3B4/5q2/8/5P1P/6K1 b - - 5 40", "g7f6 e7f7 f6e5 f7f4", 1, "skewer"), Some(4));
        // Lichess 000Pw: ...Ne2+ forks king and queen; bxc3 takes the knight
        // back and Qxc3 wins that pawn: 9 - 3 + 1.
        let fen = "6k1/5p1p/4p3/4q3/3nN3/2Q3P1/PP3P1P/6K1 w - - 2 37";
        assert_eq!(gain(fen, "e4d2 d4e2 g1f1 e2c3", 1, "fork"), Some(7));
    }

    #[test]
    fn a_fork_whose_piece_falls_later_still_names_it() {
        // Lichess 00BnG: ...Re7+ forks king and queen; Qxe7+ takes the rook
        // first and ...Nxe7 the queen: 9 for 5.
        let fen = "4Q3/ppkr1pp1/2p3n1/2P4p/1P1P4/4K3/P5P1/8 w - - 2 33";
        assert_eq!(gain(fen, "d4d5 d7e7 e8e7 g6e7", 1, "fork"), Some(4));
        // Lichess 06scF: ...Rc1+ costs the rook to win the queen, and the
        // rook that takes it is taken (-5 + 9 - 5); the knight fork of the
        // king and the d4 rook after it is a tactic of its own.
        let (fen, moves) =
            ("2r3k1/1p4pp/p3p3/8/3p1nP1/8/PPr4P/1K1RQ3 w - - 0 29", "d1d4 c2c1 e1c1 c8c1 b1c1 f4e2 c1d2 e2d4");
        assert_eq!(gain(fen, moves, 1, "fork"), Some(-1));
        assert_eq!(gain(fen, moves, 5, "fork"), Some(5));
    }

    #[test]
    fn a_capture_nets_its_own_exchange_not_the_tactics_after_it() {
        // Lichess 0AoIc: Qxe8+ takes a rook; the knight fork that wins the
        // queen after it is another fire's.
        let fen = "r1bqr2k/ppp4n/2n1p1Q1/3pP3/3P1N1R/2P2pp1/PP6/R1B2K2 b - - 0 20";
        assert_eq!(gain(fen, "d8h4 g6e8 h8g7 f4h5 h4h5 e8h5", 1, "hangingPiece"), Some(5));
    }

    #[test]
    fn a_capture_that_takes_back_counts_from_the_first_capture_of_the_run() {
        // Lichess 09MvE: Be6+ Bxe6 Nxe6 forks queen and rook; the knight
        // only takes back the bishop, and the fork then wins the exchange
        // for the e5 pawn: -3 + 3 - 1 + 9 - 9 + 5 - 3.
        let fen = "2kRr3/1pp3p1/p1n4p/4Pbq1/2B1QN2/2P5/PP4P1/1K3R2 b - - 0 25";
        assert_eq!(gain(fen, "e8d8 c4e6 f5e6 f4e6 g5e5 e4e5 c6e5 e6d8", 3, "fork"), Some(1));
        // Lichess 06lGC: Qxf2+ Qxf2 Bxf2+ trades queens; the discovered
        // attack on d3 wins the rook for the bishop, and the f2 pawn.
        let fen = "3rr1k1/5p1p/p4qp1/8/3b4/PB6/2Q2PPP/3R1RK1 w - - 4 27";
        assert_eq!(gain(fen, "d1d3 f6f2 c2f2 d4f2 g1f2 d8d3", 3, "discoveredAttack"), Some(3));
    }

    #[test]
    fn a_piece_taken_with_mate_is_no_material_won() {
        // Lichess 0C63K: Nf6+ gxf6 Qxh7#: the discovered attack on h7 mates.
        let fen = "rn2r1k1/pppb1ppp/4p3/4b3/2P1N2R/BP2q1P1/P1Q1P1BP/1N5K b - - 1 17";
        assert_eq!(gain(fen, "d7c6 e4f6 g7f6 c2h7", 1, "discoveredAttack"), None);
    }

    #[test]
    fn the_line_ends_with_a_capture_search_not_one_exchange() {
        // Lichess 061vt: Bxf7+ forks king and queen, Qxf7 Rxf7 wins the
        // queen; ...Kxf7 would take the rook back, but Bxd6+ then unmasks
        // the queen on f3 against the king and wins the bishop: 1 - 3 + 9
        // - 5 + 3 (a static exchange on f7 alone counted 2).
        let fen = "2br2k1/4Rpp1/1p1P2qp/p1bB4/2Pp1BP1/1P3Q1P/P6K/8 b - - 2 30";
        assert_eq!(gain(fen, "c5d6 d5f7 g6f7 e7f7", 1, "fork"), Some(5));
    }

    #[test]
    fn a_capture_with_check_may_come_before_the_targets_at_the_lines_end() {
        // Lichess 04fOl: ...Nxd2 takes the queen back; hxg7+ Kxg7 comes
        // before Kxd2, so the h6 pawn does not fall for nothing: the
        // bishop given, the queen won, the knight lost and the pawns
        // traded, 3, not 4.
        let fen = "8/1p4pk/r4p2/7P/1b2n3/p2QPqP1/2P2P2/B1K2R1R w - - 2 28";
        assert_eq!(gain(fen, "h5h6 b4d2 d3d2 e4d2", 3, "insufficientlyDefended"), Some(3));
        // Lichess 03FPz: Rxg5+ takes the bishop; the queen that blocks on
        // g3 is taken with check, ...Rxg3+ fxg3: 3 + 9 - 5, not 3.
        let fen = "2k2b1r/ppp1p1pp/3r4/5p2/3PB3/2P1B2q/PP3P2/RN1Q1RK1 w - - 0 15";
        assert_eq!(gain(fen, "d1f3 d6g6 e3g5 g6g5", 3, "hangingPiece"), Some(7));
    }

    #[test]
    fn a_man_that_took_with_check_may_be_taken_back_after_the_answer() {
        // Lichess 09vCU: ...bxc6 takes the knight; Bxc8+ unmasks the e1 rook
        // on the king, and after ...Kd8 and Rxa1 the king takes the bishop
        // back: one bishop each, 0, not the -3 of both bishops lost.
        let fen = "r1b2k1r/ppp3pp/3pBq2/4NQ2/3P4/8/P4PPP/b1B1R1K1 w - - 1 16";
        assert_eq!(gain(fen, "f5f6 g7f6 c1h6 f8e7 e5c6 b7c6", 5, "hangingPiece"), Some(0));
    }

    #[test]
    fn a_promotion_belongs_to_the_exchange() {
        // Lichess 09nvK: ...Rxd7 exd7 Kxf7 d8=Q: the knight and the rook
        // lost, the rook won and a queen for the pawn: -3 + 5 - 5 + 8.
        let fen = "3r3k/p2N1R2/1p5p/2p1P1p1/P7/1Pr5/6PK/8 b - - 0 38";
        assert_eq!(gain(fen, "h8g8 e5e6 d8d7 e6d7 g8f7 d7d8q", 3, "hangingPiece"), Some(5));
    }

    #[test]
    fn a_promotion_another_tactic_takes_back_is_its_trade() {
        // Lichess 05Shd: Ne4+ Kxb5 ...Nxf2 wins the bishop for the b5 pawn;
        // a8=Q+ ...Kxa8 is the next fire's, a pawn: 2, not -6.
        let fen = "8/Pk6/3n2p1/1p6/1K3P2/8/5B2/8 w - - 9 55";
        let moves = "b4c5 d6e4 c5b5 e4f2 a7a8q b7a8";
        assert_eq!(gain(fen, moves, 1, "fork"), Some(2));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_sacrifices_run_goes_on_through_a_threat_that_counts_none_of_it() {
        // Lichess 0AmHt: Nf6+ ...gxf6 exf6, whose discovered attack on the
        // e6 queen (never taken) counts nothing of the run: a knight for a
        // pawn, -2, not -3.
        let fen = "r1b2rk1/5pp1/2ppq3/1pb1P1p1/6N1/1P1B1Q1P/5PP1/3RR1K1 b - - 0 23";
        assert_eq!(gain(fen, "d6d5 g4f6 g7f6 e5f6", 1, "sacrifice"), Some(-2));
    }

    #[test]
    fn a_side_in_check_inside_the_search_answers_it() {
        // Lichess 040Jq: Rd1+ Kxd1 ends the line; ...Qxf1+ Kd2 (forced)
        // ...Qxf2+ takes the pawn too: 5 - 3 - 1, not the 2 of a king
        // free to stand in check.
        let fen = "r3k1nr/ppp1bpQp/8/8/5P2/2N5/PPP2P1P/R1B1KB1q b Qkq - 0 11";
        assert_eq!(gain(fen, "e8c8 g7h8 e7f6 h8h7 f6c3 b2c3 d8d1 e1d1", 7, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_capture_with_check_on_the_searchs_last_ply_is_answered() {
        // Lichess 05Vzs: ...Nxe2 Kxe2 ...Rxd1 Rxd1 ...Qxf2+ ends the four
        // plies, and Kxf2 takes the queen: the knight for the queen, 6.
        let fen = "2kr2r1/pp5p/1q2pp2/8/8/1N1n3P/PP2QPP1/R4RK1 w - - 3 19";
        assert_eq!(gain(fen, "a1d1 g8g2 g1g2 d3f4 g2f3 f4e2", 5, "insufficientlyDefended"), Some(6));
    }

    #[test]
    fn a_capture_on_the_searchs_last_ply_is_settled_by_its_exchange() {
        // Lichess 07GSL: Rxf8 takes the rook off the d-file, ...Kxd6 takes
        // the knight, Rxf6+ is answered, and Rxb6 on the last ply meets the
        // king's recapture: 5 - 3 + 1, not 4.
        let fen = "1k2N3/p4r2/1p3p2/3R1P1p/7P/1P5b/1K6/8 b - - 2 50";
        assert_eq!(gain(fen, "f7f8 d5d8 b8b7 e8d6 b7c6 d8f8", 5, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_king_guards_no_man_it_cannot_take_back() {
        // Lichess 0CKgM: fxg4 opens the f-file, so after ...cxd4 the king no
        // longer guards f7: Bxf7+ Kh8 Bxe8 takes the rook too, 3, not the 5
        // of the queen for the knight and pawn.
        let fen = "r2qr1k1/pb1pbppp/2p5/1p6/3QP1n1/1BPP4/PP3PPP/RNB2RK1 w - - 1 13";
        assert_eq!(gain(fen, "f2f3 c6c5 f3g4 c5d4", 1, "trappedPiece"), Some(3));
    }

    #[test]
    fn a_check_of_theirs_answered_as_the_line_ends_leaves_the_lines_end_to_search() {
        // Lichess 095vY: ...Rxa7 takes the knight, Qb8+ ...Kf7, and Qxa7
        // takes the rook: -2, not 3.
        let fen = "r5k1/N2p2pp/1pb1pq2/8/2P5/6Q1/1Pn2PPP/R4RK1 w - - 1 21";
        assert_eq!(gain(fen, "a1c1 c2d4 f1e1 a8a7 g3b8 g8f7", 3, "hangingPiece"), Some(-2));
        // Lichess 02lVn: ...Rxe7 takes the queen, Rc8+ ...Re8 blocks, and
        // Rxe8+ takes the rook: 4, not 9.
        let fen = "4r1k1/4p2p/4p1pB/1p1q4/p2Pn2Q/7P/P4PP1/2R3K1 w - - 1 28";
        assert_eq!(gain(fen, "h4e7 e8e7 c1c8 e7e8", 1, "hangingPiece"), Some(4));
        // Lichess 044Gb: ...Bxf2+ forks, Kf1 ...Bxe1 takes the rook, exf7+
        // ...Kf8 ends the line, and Kxe1 takes the bishop back: 2, not 5.
        let fen = "6k1/5ppp/p1p5/1pb1P1q1/8/1BP4Q/PP1r1PPP/4R1K1 w - - 0 24";
        assert_eq!(gain(fen, "e5e6 c5f2 g1f1 f2e1 e6f7 g8f8", 1, "fork"), Some(2));
    }

    #[test]
    fn a_side_in_check_at_the_lines_end_answers_before_it_stops() {
        // Lichess 04Kar: ...Rxc6 skewers the pinned queen to the c1 rook;
        // Qxb6 Rxc1+ ends the line, the king steps aside and ...Rxb6 takes
        // the queen back: -9 + 5 + 9, not the -8 of standing in check (the
        // c6 pawn is the pinned defender's).
        let fen = "2r3k1/5p1p/1qP1p1p1/3pP3/Pr3P2/R1Q4P/6P1/2R3K1 w - - 3 27";
        assert_eq!(gain(fen, "c3c5 c8c6 c5b6 c6c1", 1, "skewer"), Some(5));
        assert_eq!(gain(fen, "c3c5 c8c6 c5b6 c6c1", 1, "pinnedDefender"), Some(6));
    }

    #[test]
    fn an_answer_to_the_lines_last_check_that_allows_a_mate_is_not_played() {
        // Lichess 07V4V: ...Bf5+ ends the line. Kg5 meets ...Qg3#, so White
        // must play Qxf5, and ...Qxf5+ wins the queen for the bishop: the
        // deflection nets 7, not 2.
        let fen = "3B1rk1/5p1p/p4QpP/1pp5/2q5/3b4/PP3PP1/2KR3R w - - 2 26";
        assert_eq!(gain(fen, "c1d2 c4c2 d2e3 c2e2 e3f4 e2f2 f4g4 d3f5", 3, "deflection"), Some(7));
        // Lichess 09yLB: ...Bxe4+ ends it. Kg1 is illegal and f3 meets
        // ...Bxf3#, so Nxe4 answers, and the knight that left the e-file
        // lets ...Qxa5 take the queen (what the answer leaves en prise):
        // the pinned defender nets 11, not 2.
        let fen = "1k1r4/p1p1qprp/2p1b3/Q7/2p1N3/8/PPP2PPP/R3R1K1 w - - 6 19";
        assert_eq!(gain(fen, "e4c5 g7g2 g1g2 e7g5 g2h1 e6d5 e1e4 d5e4", 7, "pinnedDefender"), Some(11));
    }

    #[test]
    fn what_the_answer_to_the_lines_last_check_leaves_en_prise_may_be_taken() {
        // Lichess 04E6r: ...Rxc1+ ends the line. Ke2 or Kd2 leaves the h1
        // rook to ...Rxh1, and Qd1 gives the queen for a rook: the
        // deflection nets 6, not 1.
        let fen = "r4rk1/2q1bp2/3p1n1p/Pbp1p1p1/2N1P1P1/2PPBN1P/2Q2P2/R3K2R w KQ - 1 22";
        assert_eq!(gain(fen, "c4b6 c7b6 a5b6 a8a1 e3c1 b5d3 c2d3 a1c1", 5, "deflection"), Some(6));
        // Lichess 0AyxI: ...Qxh1+ ends it, and Kxc2 opens the first rank
        // for ...Qxa1: 5, not 0.
        let fen = "2r2rk1/pp3ppp/4p3/8/1Q1P4/6B1/PP2KPqP/R6R w - - 2 20";
        assert_eq!(gain(fen, "b4d2 g2e4 d2e3 c8c2 e2d1 e4h1", 3, "interference"), Some(5));
    }

    #[test]
    fn a_check_at_the_lines_end_wins_the_piece_only_the_king_guards() {
        // Lichess 0CIBR: ...Qxg2+ takes the pawn and hits the f1 rook, which
        // only the king guards: Kd1 ...Qxf1+ or Rf2 ...Qxf2+, and a pawn
        // after: 7, not 2 (the rook was left out where the king guarded it).
        let fen = "Rb3nk1/1Pq2p2/4p1pp/1P6/3Pp3/1NP1P2P/6P1/5RK1 w - - 4 33";
        assert_eq!(gain(fen, "b3c5 c7h2 g1f2 b8g3 f2e2 h2g2", 5, "hangingPiece"), Some(7));
        // Lichess 01CgO: Qxg6+ takes the bishop and hits the f7 rook the king
        // alone guards: ...Kh8 Qxf7, 8, not 4.
        let fen = "5rk1/pp5b/4p2B/1P1p3Q/3P4/2q4P/P4PP1/6K1 b - - 0 29";
        assert_eq!(gain(fen, "f8f7 h5g5 h7g6 g5g6", 3, "hangingPiece"), Some(8));
    }

    #[test]
    fn a_threat_the_mate_makes_needless_wins_nothing() {
        // Lichess 0A0RG: ...Qc1+ attacks the queen on g3 too, but Rxc1
        // Rxc1# mates: g3 is never taken, the queen was given for the mate.
        let fen = "1br2n1k/1pq3pp/pN3p2/5N2/3P4/3Q4/PP3PPP/R5K1 w - - 4 23";
        assert_eq!(gain(fen, "d3g3 c7c1 a1c1 c8c1", 1, "discoveredAttack"), None);
    }

    #[test]
    fn the_opponents_check_in_between_belongs_to_the_exchange() {
        // Lichess 05gES: ...Qxd8 takes a rook, but Ne7+ Bxe7 Rxd8 Bxd8
        // costs the queen for the knight and the rook: 5 + 3 - 9 + 5.
        let fen = "3R1bk1/2q2n1p/rn2rPp1/2p1p3/p3P3/1P2NN1P/PBQ2P2/3R2K1 w - - 1 32";
        assert_eq!(gain(fen, "e3d5 c7d8 d5e7 f8e7 d1d8 e7d8", 1, "hangingPiece"), Some(4));
        // Lichess 06yZ3: Qxd8 takes the queen, Rh8+ Ke7 Rxd8 Kxd8 trades
        // it back and wins the rook: 9 - 9 + 5.
        let fen = "5k2/1r3p2/6p1/q4p2/P1BQ4/1P5R/1KP5/8 w - - 4 45";
        assert_eq!(gain(fen, "d4d8 a5d8 h3h8 f8e7 h8d8 e7d8", 1, "hangingPiece"), Some(5));
    }

    #[test]
    fn the_exchange_resumed_after_their_check_stops_where_another_tactic_takes() {
        // Lichess 0AfWu: ...gxf4 takes the rook; Qc3+ ...Kg8 traps the f8
        // knight, and exf4 ...Qxf8: the rook for the pawn, 4, the knight the
        // trap's (not 7, the knight counted twice).
        let fen = "r3qr1k/b2N1p2/p1pp3p/6p1/1PP2R2/PQ2P1P1/6KP/4R3 w - - 4 28";
        let moves = "d7f8 g5f4 b3c3 h8g8 e3f4 e8f8";
        assert_eq!(gain(fen, moves, 1, "insufficientlyDefended"), Some(4));
        // Lichess 02Ht4: ...Qxc7 takes the rook; d6+ ...Rxa2 dxc7 ...Rxa1:
        // the rook and the bishop for the queen, -1, beside the a1 rook's 5
        // (the line's 4).
        let fen = "r1b2rk1/1pR3b1/3q2p1/1Q1Pp2p/4P2P/5p2/B4PP1/R4NK1 w - - 0 25";
        let moves = "g2g3 d6c7 d5d6 a8a2 d6c7 a2a1";
        assert_eq!(gain(fen, moves, 1, "hangingPiece"), Some(-1));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(5));
    }

    #[test]
    fn a_man_the_line_left_en_prise_is_taken_at_its_end() {
        // Lichess 08p4b: ...Rxe1 unmasks the bishop on the queen, Nxe8
        // takes a rook, ...Bxf3 the queen; the rook left on e1 is taken
        // back (it stood en prise before ...Bxf3, not before the key move),
        // and the knight on e8 and a pawn pay for the bishop: 9 - 5 + 3 + 1
        // - 3, as Stockfish plays it (Rxe1 Bxg2 Nd6 Qxd6 Kxg2), not 9.
        let fen = "4r1k1/6pp/p1qb1p2/3b1N2/P1pPrP2/2P2Q1P/1P1B2P1/4RRK1 w - - 7 27";
        assert_eq!(gain(fen, "f5d6 e4e1 d6e8 d5f3", 3, "insufficientlyDefended"), Some(5));
    }

    #[test]
    fn a_capture_elsewhere_another_fire_takes_back_is_its_trade() {
        // Lichess 08B8I: gxf5 wins the bishop; ...Qxf6 Rxf6, the queen for
        // the bishop, is the next fire's: 3 and 6, not 9 and 6.
        let (fen, moves) =
            ("r4rk1/p4p1p/1qp1b2R/3p2B1/1p4P1/1N3P2/PPPQ4/1K4b1 b - - 0 24", "c6c5 g5f6 e6f5 g4f5 b6f6 h6f6");
        assert_eq!(gain(fen, moves, 3, "hangingPiece"), Some(3));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(6));
        // Lichess 0758S: Bxf6 wins the queen, ...Nxg3 takes ours, which the
        // knight already hit, and Rxg3's fire is a pin that names g7, not the
        // knight: the trade is no other fire's, so Bxf6 nets the knight, 3,
        // not 9 (the line's net).
        let fen = "r3r1k1/1p3ppp/2pp1q1n/7P/p7/5PQ1/PPPB1P2/2K3RR b - - 1 20";
        assert_eq!(gain(fen, "a4a3 d2c3 a3b2 c3b2 h6f5 b2f6 f5g3 g1g3", 5, "pinnedDefender"), Some(3));
    }

    #[test]
    fn a_desperado_elsewhere_is_a_trade_of_its_own() {
        // Lichess 0COYv: ...Rxe2 wins the rook; Nxf6+ gxf6 sells the
        // trapped knight for a pawn, which the next fire counts: 5, not 7.
        let fen = "6k1/4n1pN/4pp2/p2p4/P2P4/4P3/2r1nPPP/R3R1K1 w - - 0 27";
        assert_eq!(gain(fen, "e1e2 c2e2 h7f6 g7f6", 1, "hangingPiece"), Some(5));
        assert_eq!(gain(fen, "e1e2 c2e2 h7f6 g7f6", 3, "hangingPiece"), Some(2));
        // Lichess 0CDxU: ...Nxd4 hits the queen, which takes the e4 knight
        // and is taken: the queen's 6 is the next fire's; ...Nxd4 itself
        // is still charged cxd4, the queen aside, and ...Nxf2+ answers it
        // (3 - 3 + 1).
        let fen = "3r2k1/p4ppp/1pn1p3/5q2/4n3/2P2N1P/PPQ1B1P1/R3R2K w - - 4 20";
        assert_eq!(gain(fen, "f3d4 c6d4 c2e4 f5e4", 1, "insufficientlyDefended"), Some(1));
        assert_eq!(gain(fen, "f3d4 c6d4 c2e4 f5e4", 3, "hangingPiece"), Some(6));
        // Lichess 0A74b: ...Bxd1 takes the queen; Bxf7+ Kxf7 sells the
        // bishop that took ours on the setup move, and Rxd1 takes the d1
        // bishop back: 9 - 3, then 3 - 1 for the next fire.
        let fen = "rn2r1k1/ppp2ppp/1b2qn2/8/2BP4/2P2b2/PP1N1PPP/R1BQ1RK1 w - - 0 14";
        assert_eq!(gain(fen, "c4e6 f3d1 e6f7 g8f7", 1, "insufficientlyDefended"), Some(6));
        assert_eq!(gain(fen, "c4e6 f3d1 e6f7 g8f7", 3, "hangingPiece"), Some(2));
        // Lichess 09yAZ: ...Qxe1+ is taken back by Qxe1 and Rxe1+ takes the
        // queen back: an exchange, the d5 rook's win returned (5 - 5 + 9 - 9).
        let fen = "3rr2k/p5p1/1p3pbp/3Pq3/3pP3/1P1B2P1/P2R1Q1P/4R1K1 b - - 0 31";
        assert_eq!(gain(fen, "d8d5 e4d5 e5e1 f2e1 e8e1 g1f2 e1e5 d3g6", 1, "insufficientlyDefended"), Some(0));
        // Lichess 0Af0x: Nxh4+ gxh4 opens the g6 queen's diagonal to the d3
        // queen, which ...Qxd3 takes: the knight's capture opens another,
        // and belongs (5 + 2 - 9 + 5).
        let fen = "1k2r3/pPp1r1p1/6q1/1P3nNp/3p3P/P2Q2P1/1B2PPK1/4R3 b - - 2 27";
        assert_eq!(gain(fen, "e7e2 e1e2 f5h4 g3h4 g6d3 e2e8", 1, "insufficientlyDefended"), Some(3));
        // Lichess 02370: a desperado after a quiet move of ours cuts no
        // exchange: Bb5+ opens the d-file on our queen, ...Kd6 Qxc7+
        // ...Kxc7, and Rxd4 is still to come: -1, not 8.
        let fen = "3k3r/1Qp1bpp1/4b2p/3pN3/3q4/rP1B4/2P2PPP/1K1R2R1 w - - 0 28";
        assert_eq!(gain(fen, "e5f7 e6f7 b7b8 d8d7 d3b5 d7d6 b8c7 d6c7", 7, "hangingPiece"), Some(-1));
        // Lichess 01uDg: Nxf8 takes the rook, ...Nxf6 opens the b8 queen on
        // the knight, and Qxf6+ takes the desperado with check: Black must
        // answer, and the knight gets out. 5, not 2; Qxf6+ nets its own 2.
        let fen = "1q2nr1k/5p1p/4NP2/p7/5p1Q/4R3/1PP3PP/1K6 b - - 0 32";
        assert_eq!(gain(fen, "f4e3 e6f8 e8f6 h4f6", 1, "hangingPiece"), Some(5));
        assert_eq!(gain(fen, "f4e3 e6f8 e8f6 h4f6", 3, "hangingPiece"), Some(2));
    }

    #[test]
    fn at_the_lines_end_our_side_only_answers() {
        // Lichess 01Dmj: ...dxc4 Rxd7 cxb3 Rxd8+ Nxd8 wins a knight, and
        // axb3 takes the pawn back; ...Bxf3 Bxf3 Nxe5, a trade Black had
        // anyway, does not cancel it: 3 - 1, not 3.
        let fen = "k2r4/pb1q1pp1/2n1p1n1/3pP3/2N3P1/1QP2N2/PP3P2/2KR3B w - - 8 20";
        assert_eq!(gain(fen, "h1g2 d5c4 d1d7 c4b3 d7d8 c6d8", 1, "insufficientlyDefended"), Some(2));
        // Lichess 0BxG7: ...Ne2+ Kf2 Nxd4 wins the queen, and Bxd4 takes
        // the knight back; ...Qxd7 takes a bishop en prise since the setup
        // move, no answer to Bxd4: 9 - 3, not 7.
        let fen = "6k1/pb1r2pp/1p1q1pn1/1B1pr3/1P1QP3/P4PnP/1B4P1/2RRN1K1 w - - 1 25";
        assert_eq!(gain(fen, "b5d7 g3e2 g1f2 e2d4", 1, "fork"), Some(6));
        assert_eq!(gain(fen, "b5d7 g3e2 g1f2 e2d4", 3, "insufficientlyDefended"), Some(6));
    }

    #[test]
    fn a_king_that_takes_back_nets_the_exchange() {
        // Lichess 00JZk: ...Qxf1+ Kxf1, the queen for the rook: 4, not 9
        // (our king on the square once hid the man it took).
        let fen = "7k/1q5p/3Q2p1/8/P3p3/1p2B2P/1br3P1/R5K1 b - - 0 32";
        assert_eq!(gain(fen, "b7f7 a1f1 f7f1 g1f1", 3, "hangingPiece"), Some(4));
    }

    #[test]
    fn nothing_on_the_way_to_the_lines_mate_is_material_won_or_lost() {
        // Lichess 054S8: ...Qxf2+ Rxf2 Rxe1+ Rf1 Rexf1#: neither the queen
        // given (-3) nor the rook taken on the way (5).
        let fen = "4rr1k/p4qpp/1p6/2pp4/3Q4/2P5/PP2RPPP/4R1K1 w - - 0 22";
        assert_eq!(gain(fen, "d4g4 f7f2 e2f2 e8e1 f2f1 e1f1", 1, "deflection"), None);
        assert_eq!(gain(fen, "d4g4 f7f2 e2f2 e8e1 f2f1 e1f1", 3, "hangingPiece"), None);
        // Lichess 07kQI: ...Rxd1+ takes the rook, Qe1 ...Rxe1#: the rook is
        // a step to the mate, not a win (5 while only material given on the
        // way went unclaimed).
        let fen = "5n2/pp1r3k/3Bp1rp/2q3p1/4Q3/8/P4PPP/3R2K1 w - - 0 36";
        assert_eq!(gain(fen, "d6c5 d7d1 e4e1 d1e1", 1, "hangingPiece"), None);
        // Lichess 08MJl: ...Qxa1+ takes a rook, Rb1 ...Qxb1+ takes the spite
        // block, Qd1 ...Qxd1#.
        let fen = "8/4kpp1/4p2p/1p6/3q4/3P1Q2/P4PPP/RR4K1 w - - 6 21";
        assert_eq!(gain(fen, "b1b5 d4a1 b5b1 a1b1 f3d1 b1d1", 1, "hangingPiece"), None);
        assert_eq!(gain(fen, "b1b5 d4a1 b5b1 a1b1 f3d1 b1d1", 3, "hangingPiece"), None);
        // Lichess 06vSn: Rxh3+ Nh4 Rxh4+ Kg7 Rh7#, the knight a spite block.
        let fen = "1r3r1k/ppq2p2/4pNp1/4Pn2/5n2/1R5Q/P1P2PPP/5R1K b - - 1 24";
        assert_eq!(gain(fen, "f4h3 b3h3 f5h4 h3h4 h8g7 h4h7", 3, "hangingPiece"), None);
    }

    #[test]
    fn a_check_of_theirs_ends_what_ours_collect() {
        // Lichess 0BNSS: f6+ Nxf6 Qxe5 wins the pawn back: 0; ...Bc6+
        // starts the next combination, not this one's.
        let fen = "r4qr1/1pp1k3/p3P3/Pb2pP1p/2N3n1/1PP4p/2B1Q3/4RR1K b - - 1 34";
        assert_eq!(gain(fen, "a8c8 f5f6 g4f6 e2e5 b5c6 c2e4 f6e4 f1f7 f8f7 e6f7", 1, "deflection"), Some(0));
    }

    #[test]
    fn a_lesser_man_takes_a_greater_in_answer() {
        // Lichess 09To3: Nxc7+ Kf7 Nxd5 wins the queen; ...Bxd5 is answered
        // by cxd3, a pawn taking the knight the queen guarded: 9, not 6.
        let fen = "r2qkb1r/pbp1p2p/1p2N1p1/8/8/2Pn4/P1P1QPPP/R1B2RK1 b kq - 0 13";
        assert_eq!(gain(fen, "d8d5 e6c7 e8f7 c7d5", 1, "fork"), Some(9));
    }

    #[test]
    fn a_sacrifice_gains_what_it_gives() {
        // Lichess 029wQ: Qxe5 dxe5 gives the queen for a bishop; the Nf6+
        // fork wins a queen back, and the line nets the bishop. After Nxd7
        // the knight hits the c5 and e5 pawns, and ...Ne2+ Kf2 only loses
        // time: the fork nets a pawn more.
        let (fen, moves) =
            ("r7/pp1q2bk/3p2p1/2pN3p/2Pn1Q2/3P3P/PP4PN/R5K1 b - - 0 22", "g7e5 f4e5 d6e5 d5f6 h7h6 f6d7");
        assert_eq!(gain(fen, moves, 1, "sacrifice"), Some(-6));
        assert_eq!(gain(fen, moves, 3, "fork"), Some(10));
        // Lichess 054S8: the queen given for a mate gains nothing, loses nothing.
        let fen = "4rr1k/p4qpp/1p6/2pp4/3Q4/2P5/PP2RPPP/4R1K1 w - - 0 22";
        assert_eq!(gain(fen, "d4g4 f7f2 e2f2 e8e1 f2f1 e1f1", 1, "sacrifice"), None);
    }

    #[test]
    fn a_threatened_man_that_trades_itself_nets_the_line() {
        // Lichess 07b7A: Nxg5 unmasks the g6 queen on the c2 queen, which
        // takes it after the rooks are traded; Nxf3+ and hxg6 to come: the
        // bishop, not the queen.
        let fen = "r3r1k1/2p2ppp/1b4q1/3Rp1B1/4n3/2P2N1P/PPQ3PK/R7 w - - 0 22";
        assert_eq!(gain(fen, "d5e5 e4g5 e5e8 a8e8 c2g6 g5f3", 1, "discoveredAttack"), Some(3));
    }

    #[test]
    fn their_capture_after_their_check_belongs_to_the_exchange() {
        // Lichess 08Erp: fxe4 traps the queen, Qh5+ ...Rxh5 Bxh5+ ...Kf8,
        // and dxe7+ takes the bishop the setup move hit: 3, not 5.
        let fen = "4k3/3qb3/2bp4/2P1ppr1/p3Pp1p/PrN2Q1P/1P2BPP1/1R1R2K1 w - - 0 33";
        assert_eq!(gain(fen, "c5d6 f5e4 f3h5 g5h5 e2h5 e8f8 d6e7 d7e7", 1, "trappedPiece"), Some(3));
        // Lichess 0CCFX: not a man that moved there since, as a block:
        // ...Rf7 Qxf7+ ...Bxf7 is the hanging queen's exchange, 4, and the
        // line's end one more (the queen hits a2 and the e2 pawn threatens
        // to queen; judge5404 counts about 6, by the e2 pawn).
        let fen = "3r1r2/2p1q2k/6b1/3n4/Q5N1/2P2pP1/PP2P2P/R1B1KB1R w KQ - 0 25";
        let moves = "g4f2 d5e3 c1e3 e7e3 a1d1 f3e2 d1d7 d8d7 a4d7 f8f7 d7f7 g6f7";
        assert_eq!(gain(fen, moves, 5, "fork"), Some(1));
        assert_eq!(gain(fen, moves, 11, "hangingPiece"), Some(5));
    }

    #[test]
    fn a_grab_before_a_trade_on_two_squares_is_what_the_trade_wins() {
        // Lichess 08AfH: ...Qxe3+ takes the bishop, Rxe3 the queen, and
        // ...Bxh6 the queen back: the bishop, 3, not the queen.
        let fen = "r4rk1/p1pbq1b1/1p3nQp/3p4/3P1P2/2P1B1R1/PP1N3N/R5K1 w - - 4 21";
        assert_eq!(gain(fen, "g6h6 e7e3 g3e3 g7h6", 3, "hangingPiece"), Some(3));
        // Lichess 01aTs: g3 hits the queen; Qxd4 takes the bishop, ...Rxd4
        // the queen, gxh4 the queen back: 3, not 9.
        let fen = "2r5/p3n2k/3Q2pp/4pp2/2Bb1P1q/8/P5PP/R4R1K b - - 2 26";
        assert_eq!(gain(fen, "c8c4 g2g3 e7c8 d6d4 c4d4 g3h4", 5, "hangingPiece"), Some(3));
        // Lichess 05mlq: Qxf2 takes back the setup move's rook, ...Nxf2 the
        // queen, Rxd5 the queen back: the rook, less the pawn ...Nxg4+
        // wins at the end: 4, not 8.
        let fen = "7k/1p4p1/7p/1PRqp3/6P1/4Qr1n/5P1K/8 b - - 0 33";
        assert_eq!(gain(fen, "f3f2 e3f2 h3f2 c5d5", 3, "hangingPiece"), Some(4));
    }

    #[test]
    fn a_man_hanging_before_the_key_move_taken_on_the_way_is_premise() {
        // Lichess 01FCo: Nc6+ forks king and queen; ...Kxb7 takes the pawn
        // the king attacked already, and Nxe5: the queen for the knight, 6.
        let fen = "1k2r2r/1Pp2pb1/1n1p3p/3Pq1p1/1Q1NP3/2P2P2/P4R1P/R3K3 b Q - 0 22";
        assert_eq!(gain(fen, "g7f6 d4c6 b8b7 c6e5", 1, "fork"), Some(6));
        // Not a man that plays a part. Lichess 09X01: ...Bd5+ unmasks the
        // g8 rook's check on the king and hits the queen; Bxg8 takes the
        // rook (the e6 bishop hit it already, but it gives the check), and
        // ...Bxb3 Bxb3 follows: the queen for the rook and bishop, 1.
        let fen = "2r1kbr1/1bqp3p/4BB2/p3N3/3P4/1Q6/1Pn2PPP/R3K2R w KQ - 1 21";
        assert_eq!(gain(fen, "e1f1 b7g2 f1g1 g2d5 e6g8 d5b3", 3, "discoveredAttack"), Some(1));
    }

    #[test]
    fn a_sacrifices_co_threat_leaves_the_lines_end_to_a_later_win() {
        // Lichess 038Be: ...Nxc3 gives the queen and uncovers the b7 bishop
        // on the e4 rook, which escapes by taking it; Ne2+ then wins the c1
        // rook, and what the line's end leaves is its.
        let (fen, moves) =
            ("2r2rk1/pb3ppp/1p2p3/3nNn2/3P3q/P1N5/BP1Q1PPP/2R1R1K1 w - - 8 19", "e1e4 d5c3 e4h4 c3e2 g1f1 e2c1");
        assert_eq!(gain(fen, moves, 1, "discoveredAttack"), Some(0));
        assert_eq!(gain(fen, moves, 1, "sacrifice"), Some(-6));
        assert_eq!(gain(fen, moves, 3, "discoveredAttack"), Some(8));
    }

    #[test]
    fn a_late_take_back_answers_their_capture_on_its_square() {
        // Lichess 02rFZ: Qa4 ...Nxc4 exd7 ...Qxd7 Qxc4 takes back the knight
        // that took the bishop: 0, not 3; exd7 nets the line's 2.
        let (fen, moves) =
            ("r1bq1rk1/pppnbpp1/2npP2p/8/2B5/1QN2N2/PP3PPP/R1BR2K1 b - - 0 11", "c6a5 b3a4 a5c4 e6d7 d8d7 a4c4");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(0));
        assert_eq!(gain(fen, moves, 3, "insufficientlyDefended"), Some(2));
        // 09OEZ: ...Bb7 uncovers the a8 rook on the f8 rook, which takes the
        // f7 pawn with check; ...Kxf7 after ...Kg8 f3 wins the rook for the
        // pawn: 4, as the discovery.
        let (fen, moves) =
            ("r1b1R3/p1p2p1k/1p1p2p1/7r/5B2/3B2Pq/P1P2P1P/5RKQ w - - 0 23", "e8f8 c8b7 f8f7 h7g8 f2f3 g8f7");
        assert_eq!(gain(fen, moves, 1, "discoveredAttack"), Some(4));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(4));
        // So where our run takes it back: 0BuQl's Nxf6 ...Qxf3 takes the
        // queen, and Nxe8+ ...Rxe8 gxf3 nets the rook for the knight, 2.
        let (fen, moves) = (
            "r2qr3/pp2ppk1/1n3bpp/3P4/3PN3/1B3Q1P/PP3PP1/3R1RK1 b - - 3 16",
            "b6d5 b3d5 d8d5 e4f6 d5f3 f6e8 a8e8 g2f3",
        );
        assert_eq!(gain(fen, moves, 5, "insufficientlyDefended"), Some(2));
        assert_eq!(gain(fen, moves, 3, "discoveredAttack"), Some(5));
        // Not where their capture answered a capture of ours (02gWU: Rxd1
        // ...Bxf6 Rxf1+ ...Kxf1 gxf6, the queens traded on two squares and
        // the bishop won: 3), nor where a fire before names the man it took
        // (05KTd: R5d2's counter-threat leaves d1 to ...Nxd1, and Bxd1 takes
        // the knight: 3), nor where a fire between names the square (0BTeI:
        // ...Qxf4+ forks a4, and ...Qxa4 is the fork's: 2).
        let (fen, moves) =
            ("rnbr2k1/1pb1npp1/p1p2q1p/4p3/P1B1P3/1P3N2/1BP1NPPP/R2Q1RK1 w - - 2 13", "b2e5 d8d1 e5f6 d1f1 g1f1 g7f6");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(3));
        let (fen, moves) =
            ("2r3k1/pp3p2/7p/3R1p2/nb6/1N2PB1N/PPq2PPP/K2R4 b - - 5 28", "a4c3 d5d2 c3d1 d2c2 c8c2 f3d1");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(3));
        let (fen, moves) =
            ("5rk1/pp1q1ppp/3p4/2p3B1/b7/2N5/PPP2PPP/2KR1B1R w - - 0 14", "g5f4 d7f5 c3a4 f5f4 c1b1 f4a4");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(2));
    }

    #[test]
    fn a_trade_on_two_squares_nets_nothing() {
        // Lichess 02wgI: Nxe5 wins the knight; ...Bxe2 takes the queen and
        // Nxd7 takes theirs, the first fire's exchange: 3, then 0.
        let (fen, moves) =
            ("2kr1b1r/1ppq2pp/p1n2p2/4Pn2/6b1/1BP2N2/PP2QPPP/RNB1R1K1 b - - 0 12", "c6e5 f3e5 g4e2 e5d7");
        assert_eq!(gain(fen, moves, 1, "insufficientlyDefended"), Some(3));
        assert_eq!(gain(fen, moves, 3, "insufficientlyDefended"), Some(0));
        // Lichess 01q7V: ...Bc4+ forks, ...Bxa6 collects the rook, Rxc3
        // takes a bishop, and ...Rxc6 takes one back: the fork's exchange
        // stops before it, so it is no trade of the fork's: 3.
        let (fen, moves) = ("2r3k1/p4ppp/R1B1b3/2P5/4p3/2b1P3/4KPPP/7R w - - 6 26", "h1c1 e6c4 e2d1 c4a6 c1c3 c8c6");
        assert_eq!(gain(fen, moves, 1, "fork"), Some(2));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(3));
        // Lichess 089nL: ...Bxe5 takes the knight; after ...Rd4, Rxe5 and
        // ...Rxc4 trade bishops: 0.
        let (fen, moves) = ("5k2/4pNb1/1p4pp/4p3/2B2n2/5P2/PPPr1P1P/1K2R3 w - - 1 23", "f7e5 g7e5 b1c1 d2d4 e1e5 d4c4");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(0));
        // Lichess 0AzTR: Bxf6 ...Bxf3 Bxe7 ...Bxd1 Bxd8, no fire on Bxe7:
        // the queens are traded on two squares, 0, not 9.
        let (fen, moves) =
            ("r2q1rk1/ppp1bpp1/3pbn1p/4p3/4P2B/2PPNN2/PP3PPP/R2Q1RK1 b - - 2 11", "e6g4 h4f6 g4f3 f6e7 f3d1 e7d8");
        assert_eq!(gain(fen, moves, 5, "insufficientlyDefended"), Some(0));
        // Lichess 03E8w: Bxd5 ...Rxf1+ Rxf1 ...exd5 takes back the key move's
        // bishop, no answer to Rxf1: Bxe7 takes a loose bishop, 3.
        let (fen, moves) = (
            "rnq2rk1/ppp1bNpp/4p3/3b2BP/2BP2P1/2P5/P1P1Q3/R4RK1 b - - 4 15",
            "f8f7 c4d5 f7f1 a1f1 e6d5 g5e7 b8c6 f1f8 c8f8 e7f8",
        );
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(3));
        // Lichess 0Ar3q: ...Nxd4 stood since ply 3, but Bxh7 opened the
        // d-file for Qxd4: a trade on two squares with ...Rxh7, 0.
        let (fen, moves) = (
            "r1b1k2r/1pq2ppp/p1n1pn2/3pP3/3N1P2/2bBB3/PPP3PP/R2Q1RK1 w kq - 0 11",
            "e5f6 c3d4 e3d4 c6d4 f6g7 h8g8 d3h7 g8g7 d1d4 g7h7",
        );
        assert_eq!(gain(fen, moves, 9, "hangingPiece"), Some(0));
        // Lichess 02qd6: Bxf6 ...Bxf3 Bxd8 ...Rxd8 gxf3: the queens traded,
        // 0, though gxf3 takes their bishop back later: that is its own, 3.
        let (fen, moves) =
            ("r2q2k1/1bp2ppp/p4n2/1p4B1/4P3/1BP2Q2/P4PPP/R5K1 b - - 0 17", "b7e4 g5f6 e4f3 f6d8 a8d8 g2f3");
        assert_eq!(gain(fen, moves, 3, "insufficientlyDefended"), Some(0));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(3));
        // Lichess 09d1o: a payoff's trade too. ...d3 hits the queen, Rxe5
        // ...dxc2+ Kxc2 ...Bxe5: the queens traded, the pawn lost, the rook
        // won back in the capture's own exchange: 4, not 13.
        let (fen, moves) =
            ("1r4k1/6b1/2p1p2p/p1P1q3/3p2P1/7P/PPQ2R2/1K3R2 w - - 0 32", "f2e2 d4d3 e2e5 d3c2 b1c2 g7e5");
        assert_eq!(gain(fen, moves, 3, "insufficientlyDefended"), Some(4));
    }

    #[test]
    fn a_man_the_setup_move_put_en_prise_is_the_puzzles_business() {
        // Lichess 06etG: h6 hits the g7 bishop; ...Qh5+ Qh3 ...Qxg6 wins
        // the rook, and hxg7 Kxg7 is still to come: 5 - 3 + 1.
        let fen = "4r1k1/p5b1/1p4R1/4q2P/8/2P3Q1/P4PPK/8 w - - 5 36";
        assert_eq!(gain(fen, "h5h6 e5h5 g3h3 h5g6", 1, "deflection"), Some(3));
    }

    #[test]
    fn a_man_the_setup_move_left_unguarded_is_the_puzzles_business() {
        // Lichess 046Sy: ...Bxe4 takes the rook that guarded the e5 knight;
        // Rxe4 guards it again, and after ...Qxe4 dxe4 ...Rxe5 takes it:
        // the queen for the rook, less the knight, 4, not 7.
        let fen = "4r1k1/2pQ1ppq/1p2r2p/2p1Nb2/2P1R3/P2P4/1P3PPP/4R1K1 b - - 13 25";
        assert_eq!(gain(fen, "f5e4 d7f7 g8h8 e1e4 h7e4 d3e4", 5, "hangingPiece"), Some(4));
        // Lichess 054n8: Qc2 backs the d3 bishop against h7, which the king
        // alone guards, and ...Qxf3 leaves Bxh7+ to come: 0, not 1.
        let fen = "r4rk1/pp3ppp/2nbpq2/3p2B1/3P1n2/2PB1N1P/PP2QPP1/R4RK1 w - - 12 14";
        assert_eq!(gain(fen, "e2c2 f4h3 g2h3 f6f3", 1, "deflection"), Some(0));
        // Lichess 05Nmq: ...fxg5 takes the knight that guarded the f7
        // bishop, so ...Kxf7 on the way to Bxd8 is the skewer's to pay:
        // the pawn and the queen for the bishop, 7, not 10.
        let fen = "r1bq3r/ppp1kB1p/5pp1/2b1p1N1/3n3Q/3P4/PPP2PPP/RNB1K2R b KQ - 1 11";
        assert_eq!(gain(fen, "f6g5 c1g5 e7f7 g5d8", 1, "skewer"), Some(7));
    }

    #[test]
    fn a_sacrifice_runs_on_through_our_retake() {
        // Lichess 00vf5: Ndb5 axb5 Nxb5 gives a knight for a pawn: -2.
        let fen = "r1b1kbnr/1pqp1ppp/p1n1p3/8/2BNP3/P1N5/1PP2PPP/R1BQK2R b KQkq - 0 7";
        assert_eq!(gain(fen, "g8e7 d4b5 a6b5 c3b5 c7b8 b5d6", 1, "sacrifice"), Some(-2));
        // Lichess 07KyR: Re7 Bxe7 Rxe7 Qxe7 Qxe7; the last capture is the
        // hanging queen's: the rook given.
        let (fen, moves) =
            ("r4rk1/pp1q2pp/3bR3/3p2Q1/8/P1N4P/1P3PP1/4R1K1 b - - 0 23", "d6c5 e6e7 c5e7 e1e7 d7e7 g5e7");
        assert_eq!(gain(fen, moves, 1, "sacrifice"), Some(-5));
    }

    #[test]
    fn a_sacrifice_that_takes_back_counts_from_before_their_capture() {
        // Lichess 01Isj: ...Rxe1+ Rxe1 trades the rooks on e1, and the
        // take-back leaves the b6 bishop to cxb6: -3, not 2.
        let fen = "1kq1r2r/p1p2pp1/1pPb4/3P3p/Q1B2nb1/4B3/P2N1PPP/1R2R1K1 b - - 1 20";
        let moves = "h5h4 c4a6 c8f5 e3b6 e8e1 b1e1 c7b6 c6c7 d6c7 e1e8 h8e8 a4e8 f5c8 a6c8";
        assert_eq!(gain(fen, moves, 5, "sacrifice"), Some(-3));
    }

    #[test]
    fn a_tactic_that_takes_back_on_a_sacrifices_square_counts_from_after_the_sacrifice() {
        // Lichess 08Ao7: ...Re3 is the sacrifice's -5; fxe3 takes the rook,
        // and ...Nxe3+ forks king and queen, which ...Nxc2 takes, the
        // bishop taking the knight back: 7, not 2 (the rook counted twice).
        let fen = "4r1k1/pp3p2/2p4p/3p2p1/3P1qn1/2PB1N2/PPQ2P2/R5K1 w - - 2 22";
        assert_eq!(gain(fen, "g1g2 e8e3 f2e3 g4e3 g2f2 e3c2", 3, "fork"), Some(7));
        // Lichess 07KyR: Re7 Bxe7 Rxe7 Qxe7 Qxe7: after the rook given, the
        // hanging queen nets the queen for a bishop and a rook, and a pawn
        // the line's end leaves: 8, not 3; the line's story is -5, then 8.
        let (fen, moves) =
            ("r4rk1/pp1q2pp/3bR3/3p2Q1/8/P1N4P/1P3PP1/4R1K1 b - - 0 23", "d6c5 e6e7 c5e7 e1e7 d7e7 g5e7");
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(8));
        // Lichess 06Pog: Ne6+ is the sacrifice's -3, and fxe6+ takes back
        // with a discovered check: the pawn, 1, not -2.
        let fen = "3r1k2/1b1r1ppQ/pp3q1p/2b1pP2/1P1N4/2P4P/P5P1/1B1R1R1K b - - 0 27";
        let moves = "f6g5 d4e6 f7e6 f5e6 f8e7 d1d7 d8d7 b1e4 b7e4 h7e4";
        assert_eq!(gain(fen, moves, 3, "discoveredAttack"), Some(1));
    }

    #[test]
    fn our_checks_run_on_until_another_tactic_wins() {
        // Lichess 08hfz: Rxg6+ forks king and queen, Qxg6 Qxg6+ wins the
        // queen for the rook (5); Qxg6+ forks the f5 rook in turn, which
        // Qxf5 takes: the second fork's, not the first's 10. Qxf5 hits the
        // e5 and h5 pawns too, and no one answer saves both (Stockfish:
        // ...e4 Qe5, and Qxh5 later): the rook and a pawn, 6.
        let (fen, moves) = ("6k1/pp1r4/2p1q1pQ/3pp2p/8/1P3r2/PKP5/6R1 b - - 1 31", "f3f5 g1g6 e6g6 h6g6 d7g7 g6f5");
        assert_eq!(gain(fen, moves, 1, "fork"), Some(5));
        assert_eq!(gain(fen, moves, 5, "hangingPiece"), Some(6));
    }

    #[test]
    fn a_queen_taken_as_it_is_made_is_a_pawn() {
        // Lichess 04Fg4: d8=Q+ Kxd8, a pawn that was lost anyway: 1, not 9.
        let fen = "8/3P1k2/8/4R1p1/1K2Pp2/8/8/3r4 w - - 1 56";
        assert_eq!(gain(fen, "e5d5 d1d5 e4d5 f7e7 d7d8q e7d8", 5, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_man_a_lesser_one_attacks_is_en_prise() {
        // Lichess 03Lyw: ...Bxd8 takes the queen, but Qd8+ drew the bishop
        // off the long diagonal, and axb3 takes the guarded rook, ...Qxb3
        // the pawn back: 9 - 5 + 1, not 9.
        let fen = "1r4k1/5p1p/p2n1b1P/2Q2p2/q2np3/1P6/P1PB1PPR/2KR4 w - - 0 25";
        assert_eq!(gain(fen, "c5d6 d4b3 c2b3 b8b3 d6d8 f6d8", 5, "hangingPiece"), Some(5));
    }

    #[test]
    fn a_threat_the_man_steps_out_of_wins_nothing() {
        // Lichess 083dK: dxe5 unmasks the d2 queen on the d6 queen, the
        // line's last move; the queen takes the pawn and is safe: 0, not 9.
        let fen = "r1b1k2r/2p2ppp/2nqp3/p7/1p1PP3/1N4P1/PPPQ2P1/2KR1B1R b kq - 0 15";
        assert_eq!(gain(fen, "e8g8 e4e5 c6e5 d4e5", 3, "discoveredAttack"), Some(0));
    }

    #[test]
    fn a_threat_whose_man_steps_away_wins_what_that_leaves() {
        // Lichess 0BJDT: d5 unmasks the e3 bishop on the b6 queen and hits
        // the e6 bishop: ...Qc7 dxe6 fxe6 leaves us the bishop for the pawn,
        // 2, not 0.
        let fen = "2r2rk1/3n1ppp/pqp1bn2/1p1p4/1P1P4/2N1B2P/P1PQBPP1/4RRK1 b - - 2 15";
        assert_eq!(gain(fen, "f6e4 c3e4 d5e4 d4d5", 3, "discoveredAttack"), Some(2));
        // Lichess 02fRr: b3 unmasks the d2 rook on the a2 knight and hits the
        // queen, which takes the pawn and guards the knight: 0, not 9.
        let fen = "r2r2k1/ppq1bppp/4pn2/6B1/1n1P4/2N1Q3/PP1RNPPP/5RK1 b - - 15 16";
        assert_eq!(gain(fen, "b4a2 g5f4 c7c4 b2b3", 3, "discoveredAttack"), Some(0));
    }

    #[test]
    fn a_threat_whose_man_can_only_trade_itself_wins_the_difference() {
        // Lichess 01gA2: ...Ng6 unmasks the d8 rook on the g8 queen, Qh7,
        // and ...Rh8 shuts it in: every square it may step to is attacked,
        // and Qxh8+ Qxh8 gives the queen for the rook: 4, not 9.
        let fen = "2kr1nQ1/ppp2p2/2n1pq2/3p4/3P4/4P3/PPPN1PPP/R4RK1 w - - 5 15";
        assert_eq!(gain(fen, "c2c4 f8g6 g8h7 d8h8", 1, "discoveredAttack"), Some(4));
        // Lichess 03mei: Ke2 unmasks the h1 rook on the d1 knight, which has
        // no square; ...Bxf3+ Kxf3 is a trade elsewhere that leaves it
        // where it stands, and its own ...Nxb2 Bxb2 gives it for a pawn: 2,
        // not 3 (the whole knight) nor 0 (the trade on f3 read as saving it).
        let fen = "r1bk3r/ppp2ppp/8/8/8/4P1P1/PP1P1bBP/R1Bn1K1R b - - 0 11";
        assert_eq!(gain(fen, "h8e8 f1e2 c8g4 g2f3", 1, "discoveredAttack"), Some(2));
    }

    #[test]
    fn a_threat_on_several_men_wins_what_their_best_answer_leaves() {
        // Lichess 06ZIT: Ng3 unmasks the f3 bishop on the c6 queen and the e1
        // queen on the e7 bishop, and hits the f5 bishop; ...Qc7 saves the
        // queen and guards e7, and Nxf5 follows: 3, not 9 (...Qe6 guards
        // both bishops, and Nxf5 Qxf5 Qxe7 wins one all the same).
        let fen = "r4rk1/pp2bppp/8/2pqpbN1/4nB2/2P2B2/PP4PP/3RQRK1 b - - 3 17";
        assert_eq!(gain(fen, "d5c6 g5e4 e5f4 e4g3", 3, "discoveredAttack"), Some(3));
    }

    #[test]
    fn a_threat_met_before_the_line_ends_wins_nothing() {
        // Lichess 04Dbs: Bb4 unmasks the d1 queen on the d4 bishop and forks
        // queen and rook; ...Qxb4 Rxb4 wins the queen, and the bishop, still
        // attacked as the line ends, may step away: 0, not 3.
        let fen = "r4rk1/p4pbp/1p2p1p1/8/2PP4/q4P2/3B1P1P/1R1QR1K1 b - - 0 18";
        assert_eq!(gain(fen, "g7d4 d2b4 a3b4 b1b4", 1, "discoveredAttack"), Some(0));
        assert_eq!(gain(fen, "g7d4 d2b4 a3b4 b1b4", 1, "fork"), Some(6));
        // Lichess 00y0m: b7 unmasks the c7 bishop on the a5 rook, which
        // leaves with ...Ra1+ once the queen is won: 0, not 5.
        let fen = "r5k1/2B2pp1/rP2p1p1/P2q4/3Pp3/R6P/5PP1/1R4K1 b - - 6 32";
        assert_eq!(gain(fen, "a6a5 a3a5 a8a5 b6b7 d5b7 b1b7 a5a1 g1h2", 3, "discoveredAttack"), Some(0));
    }

    #[test]
    fn a_threat_the_check_it_gives_lets_them_meet_wins_nothing() {
        // Lichess 0BuRD: ...exf2+ unmasks the queen on the e1 rook, and the
        // answer Kxf2 guards it; the pawn's capture is the queen-for-rook
        // trade's (insufficientlyDefended, 3): 0, not 5.
        let (fen, moves) = ("5r1k/pp4p1/7p/4P3/3Pq3/P1P1p3/1P2Q1P1/R5K1 w - - 1 28", "a1e1 f8f2 e2f2 e3f2");
        assert_eq!(gain(fen, moves, 3, "discoveredAttack"), Some(0));
        assert_eq!(gain(fen, moves, 3, "insufficientlyDefended"), Some(3));
        // Lichess 03726: Nxg6+ unmasks the e1 rook on the queen, which takes
        // the knight; the deflection's exchange holds the move's capture: 0.
        let (fen, moves) = ("r3q2k/6b1/p5pp/1nQ1Nr2/5P2/2P5/PP4PP/R3R1K1 b - - 0 23", "a8c8 e5g6 e8g6 c5c8");
        assert_eq!(gain(fen, moves, 1, "discoveredAttack"), Some(0));
    }

    #[test]
    fn a_man_taken_only_by_a_later_sacrifice_is_no_gain() {
        // Lichess 059XJ: Qd8+ forks the f6 knight, which Qxf6+ Kxf6 takes
        // by giving the queen (the sacrifice's -6): the fork nets 0, and
        // Ng4+ wins the queen back, the f4 pawn the setup move hit falling
        // as the line ends (9 - 1).
        let (fen, moves) =
            ("6k1/5p1p/4pnp1/ppq1N3/5P2/2P4P/PP4PK/3Q4 b - - 0 27", "c5f2 d1d8 g8g7 d8f6 g7f6 e5g4 f6f5 g4f2");
        assert_eq!(gain(fen, moves, 1, "fork"), Some(0));
        assert_eq!(gain(fen, moves, 3, "sacrifice"), Some(-6));
        assert_eq!(gain(fen, moves, 5, "fork"), Some(8));
    }

    #[test]
    fn a_threat_that_came_to_nothing_nets_what_its_move_took() {
        // Lichess 09YuP: Bxe4 takes the knight and unmasks the f3 queen on
        // the c3 queen, which steps away: 3.
        let fen = "r4rk1/p1p3pp/4b3/2pp1p2/4nB2/2qB1QP1/P1P2P1P/R3R1K1 b - - 1 17";
        assert_eq!(gain(fen, "c7c6 d3e4 c3f6 e4d3", 1, "discoveredAttack"), Some(3));
        // Lichess 04qgk: Nxe6 takes the bishop, and the f7 pawn will take
        // the knight: 0, not 9.
        let fen = "4k2r/1R3p2/p3b2p/q2pPpp1/3N4/2r5/P4QPP/1R4K1 b k - 1 25";
        assert_eq!(gain(fen, "a5c5 d4e6 c3c1 b1c1 c5c1 f2f1", 1, "discoveredAttack"), Some(0));
        // Lichess 045rD: ...fxe4 takes back the queen Qxe4 took, the
        // opponent's exchange, not the discovery's: 0.
        let fen = "5rk1/4b1pp/1Np5/4pp2/4q3/P2Q1NPb/2P2P1P/3R2K1 w - - 0 22";
        assert_eq!(gain(fen, "d3e4 f5e4 f3e5 e7c5", 1, "discoveredAttack"), Some(0));
        // Lichess 00ZEW: Qxh5+ gives the queen for the knight, the
        // sacrifice's -6; the discovery on the e5 rook, which takes it, is 0.
        let fen = "r1b5/pppqNkp1/3p3p/6rn/1PP2p1N/P5P1/4Q2P/4RRK1 b - - 3 22";
        let moves = "g5e5 e2h5 e5h5 f1f4 f7e8 e7g6";
        assert_eq!(gain(fen, moves, 1, "discoveredAttack"), Some(0));
        assert_eq!(gain(fen, moves, 1, "sacrifice"), Some(-6));
    }

    #[test]
    fn the_man_a_move_takes_is_the_fire_that_names_it() {
        // Lichess 09KlA: ...gxh6 takes the queen, the hanging piece's 9, and
        // unmasks the g8 rook on the g3 rook, which is traded: 0, not 9.
        let fen = "6rk/6p1/5nQ1/2p1q2p/1p6/1P4RP/P7/2K3R1 w - - 0 37";
        assert_eq!(gain(fen, "g6h6 g7h6 g3g8 f6g8", 1, "hangingPiece"), Some(9));
        assert_eq!(gain(fen, "g6h6 g7h6 g3g8 f6g8", 1, "discoveredAttack"), Some(0));
        // Lichess 0BkA9: ...Qxc3+ takes the knight (3) and forks the a1
        // rook, which ...Qxa1+ wins: 5, not 8.
        let fen = "r3k1nr/ppp2ppp/1b1p1q2/3P4/1P2P1b1/PBN2Q2/5PPP/R1B1K2R w KQkq - 1 13";
        assert_eq!(gain(fen, "f3g4 f6c3 c1d2 c3a1", 1, "fork"), Some(5));
        // Lichess 02Dnf: fxe7 takes the bishop and forks queen and rook;
        // the queens are traded: 0, not 3.
        let fen = "rnbq1rk1/p3b1pp/4pP2/1Pp3B1/8/2p2N2/PP3PPP/R2QKB1R b KQ - 0 11";
        assert_eq!(gain(fen, "c3b2 f6e7 d8d1 a1d1", 1, "fork"), Some(0));
        // Lichess 03K3h: Bxc3 takes the rook and falls five moves on: the
        // exchange is the line's, not a man won apart from it.
        let fen = "6k1/4pqbp/3p2p1/3P1p2/1p1B4/1Pr4P/2PR2P1/3Q1K2 b - - 0 34";
        assert_eq!(gain(fen, "f7d5 d4c3 d5b5 d1e2 b5e2 d2e2 g7c3 e2e7", 1, "discoveredAttack"), Some(2));
        // Lichess 08i3m: Nxe7+ takes the pawn (the hanging piece's 1) and
        // forks; the knight that takes the queen falls to the g6 pawn in the
        // fork's own exchange: 6, the pawn not counted twice.
        let fen = "rnb2rk1/pp2ppbp/6p1/2PN4/5q2/5N2/PPP2PPP/R2Q1RK1 b - - 1 12";
        assert_eq!(gain(fen, "f4f5 d5e7 g8h8 e7f5", 1, "hangingPiece"), Some(1));
        assert_eq!(gain(fen, "f4f5 d5e7 g8h8 e7f5", 1, "fork"), Some(6));
    }

    #[test]
    fn a_grab_in_answer_to_a_quiet_threat_is_charged_to_its_capture() {
        // Lichess 04e0U: e5 attacks the queen, ...Rxc1 grabs a rook, and
        // exf6 takes the queen: 9 - 5, not 9; and ...Rxf1+ saves the rook
        // with check before ...gxf6 takes the pawn back: 3.
        let fen = "5rk1/2p2ppp/1pPp1qn1/2nP4/2N1P3/5PP1/2B1Q2P/r1R2RK1 b - - 6 28";
        assert_eq!(gain(fen, "f8a8 e4e5 a1c1 e5f6", 3, "insufficientlyDefended"), Some(3));
        // Lichess 08RC5: Bd2 blocks the check and attacks the queen, ...Nxe2
        // takes ours, Bxb4 theirs: a trade, 0.
        let fen = "r1b1k2r/pp1p1ppp/1q2p3/8/2NnP1n1/8/PP2QPPP/R1B1KB1R b KQkq - 1 10";
        assert_eq!(gain(fen, "b6b4 c1d2 d4e2 d2b4", 3, "hangingPiece"), Some(0));
        // Lichess 04O9F: ...Kc7 answers the check and attacks the b6 rook;
        // exd5 takes back the queen ...Qxd5 took, no grab: ...Kxb6 nets
        // the rook.
        let fen = "1R4r1/r4Q1p/p2k4/2pp2q1/3bP3/7P/P1P3B1/5R1K w - - 1 26";
        assert_eq!(gain(fen, "f7d5 g5d5 b8b6 d6c7 e4d5 c7b6", 5, "hangingPiece"), Some(5));
        // Lichess 082g9: Qc8 hits the d7 rook and the queen behind it;
        // ...Rxc7 grabs the rook and steps off the line: Qxe6, 9 - 5.
        let fen = "7k/2R5/3rqp1p/p7/Pb5P/4PQP1/1P3P2/6K1 b - - 1 32";
        assert_eq!(gain(fen, "d6d7 f3a8 h8g7 a8c8 d7c7 c8e6", 5, "hangingPiece"), Some(4));
        // Lichess 0AikS: Be3 lines up on the queen behind the d4 knight,
        // which grabs the e2 bishop: Bxb6, 9 - 3.
        let fen = "r1b1k2r/pp3pbp/1q2p1p1/3pPnB1/3N4/2N5/PP2BPPP/1R1QK2R b Kkq - 0 12";
        assert_eq!(gain(fen, "f5d4 g5e3 d4e2 e3b6", 3, "insufficientlyDefended"), Some(6));
    }

    #[test]
    fn a_sacrifices_give_up_is_charged_to_it_alone() {
        // Rb7 gives the rook; the deflection of the queen wins the d6 pawn
        // (the fork after it, the queen): 1, not the rook charged again.
        let fen = "r7/2q2kp1/3p1pn1/3PpNp1/8/p1P4P/Pr3PPK/1R1QR3 b - - 1 30";
        let moves = "b2f2 b1b7 c7b7 f5d6 f7g8 d6b7";
        assert_eq!(gain(fen, moves, 1, "deflection"), Some(1));
        assert_eq!(gain(fen, moves, 1, "sacrifice"), Some(-5));
        // A fire of the move that wins it back nets the balance: the queen
        // it pins is the later fork's.
        assert_eq!(gain(fen, moves, 1, "pin"), Some(5));
        // Lichess 06WdM: ...Nf3+ forks king and queen and is taken; ...Re1+
        // Qxe1 ...Qxe1+ is the fork's own payoff, no other tactic between:
        // the fork nets its win, 4, beside the sacrifice's -3 (the line's
        // +1), not the knight charged again (1).
        let fen = "4r2k/ppp3bp/3p2p1/8/2Pn1BPq/3P3P/PP1Q2B1/5RK1 w - - 0 21";
        let moves = "f4e3 h4g3 e3f4 d4f3 f1f3 e8e1 d2e1 g3e1";
        assert_eq!(gain(fen, moves, 3, "fork"), Some(4));
        assert_eq!(gain(fen, moves, 3, "sacrifice"), Some(-3));
    }

    #[test]
    fn a_capture_that_lets_us_mate_is_not_taken_at_the_lines_end() {
        // ...Qxc6 would take the pinning queen, and Rd8# follows: bxc5 wins
        // the bishop, nothing is lost.
        let fen = "4k2r/5pb1/p3b1p1/2Q1P1B1/1P5p/P2q1NnP/6P1/4R1K1 b k - 3 36";
        assert_eq!(gain(fen, "g7f8 c5c6 d3d7 e1d1 f8c5 b4c5", 5, "hangingPiece"), Some(3));
        // Rxd6 would take the rook back, and ...Qe1# follows.
        let fen = "3r2k1/3r1p1p/p2N2pB/1p1Q4/1P6/P1q5/5PPP/3R2K1 w - - 1 23";
        assert_eq!(gain(fen, "h6g5 d7d6 d5d6 d8d6", 1, "insufficientlyDefended"), Some(7));
    }

    #[test]
    fn a_forking_check_at_the_lines_end_is_taken_off() {
        // ...gxh5 wins the trapped queen, and Nf7+ forks king and queen:
        // the queen for the knight back.
        let fen = "3rrb1k/p5p1/1pnq3p/2p1p2Q/2Pp2NP/P2P2P1/1P1BRP2/4R1K1 w - - 9 32";
        assert_eq!(gain(fen, "f2f4 g7g6 g4e5 g6h5", 1, "trappedPiece"), Some(2));
        assert_eq!(gain(fen, "f2f4 g7g6 g4e5 g6h5", 3, "hangingPiece"), Some(3));
        // ...dxc3 wins the queen; Nf6+ takes the d7 queen for the knight.
        let fen = "r3kb1r/pp1q1p1p/8/2np2p1/5N2/6P1/PPQPPP1P/R1B2RK1 w kq - 0 16";
        assert_eq!(gain(fen, "c2c3 d5d4 f4h5 d4c3", 3, "insufficientlyDefended"), Some(2));
        // Qe4+ would hit the h1 rook, but Qg7# is threatened: no time.
        let fen = "3r2k1/1p3p2/1Q4pP/p2p4/P1q2P1P/2P5/1K6/7R b - - 0 28";
        assert_eq!(gain(fen, "d8e8 b6f6 e8e2 b2c1 e2c2 c1c2", 5, "hangingPiece"), Some(5));
        // Lichess 00IDw: ...Re1# is threatened, but Nd6+ forks the king
        // and that rook: a rook for the knight, 3, not 5.
        let fen = "4r3/pN3kpp/2N1b3/2R5/5b2/P7/1P3PPP/7K w - - 1 30";
        assert_eq!(gain(fen, "g2g3 e6h3 c5c1 f4c1", 3, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_forced_answer_to_our_check_may_walk_into_a_check_that_wins() {
        // Lichess 08QFG: ...Qxf3+ leaves Kg1 alone, and ...Rg8+ wins the
        // queen for the rook (Qxg8+ Kxg8; a block on g4 or g6 the rook
        // takes): 9, not 5. The checker stands where only a greater man
        // may take it, guarded.
        let fen = "5r1k/6r1/p3Q3/1pp5/5q2/2P2b2/PP4PP/4RRK1 w - - 0 30";
        assert_eq!(gain(fen, "f1f3 g7g2 g1g2 f4f3", 3, "insufficientlyDefended"), Some(9));
        // Lichess 03zMQ: ...Qxe3+ leaves Kh2 alone, and ...Qe5+ forks the
        // king and the a5 knight: 8, not 5.
        let fen = "2k1r3/2p5/p3r3/N5pP/6P1/Q2RPRK1/8/1q6 w - - 10 37";
        assert_eq!(gain(fen, "f3f2 b1g1 f2g2 e6e3 d3e3 e8e3 a3e3 g1e3", 7, "hangingPiece"), Some(8));
    }

    #[test]
    fn a_loose_pawn_no_answer_saves_is_lost_at_the_lines_end() {
        // Lichess 00oSB: Kxc6 takes the d5 pawn's only guard; it cannot
        // step on, and nothing of Black's can guard it: 2, not 1.
        let fen = "8/8/p1p5/1pKp3k/3P2p1/P1Q3P1/1Pq5/8 b - - 21 59";
        assert_eq!(gain(fen, "c2c3 b2c3 h5g6 c5c6", 3, "hangingPiece"), Some(2));
        // Lichess 07dgW: ...Bxd1 hits the b3 pawn, which nothing guards: 4.
        let fen = "4b3/8/pp1p1p2/2pPpP2/P1P1P2k/1P6/5K2/3N4 w - - 0 35";
        assert_eq!(gain(fen, "f2f3 e8h5 f3e3 h5d1", 1, "skewer"), Some(4));
        // Lichess 04KfT: the f5 pawn the rook and knight hit stood en prise
        // before the key move (the h5 queen hit it): the premise, not
        // added. The g8 knight, hit by both and guarded by the king alone,
        // is: 5. (...Kg7 guards it once more and hits the h6 knight and the
        // f8 rook, so Rxg8+ Kxh6 is a trade and Stockfish reads 4: a
        // counter-attack the answers' test does not see.)
        let fen = "5rnk/pppq2rp/4P1nN/3p1p1Q/8/2P1R3/PP3PPP/R5K1 b - - 0 23";
        assert_eq!(gain(fen, "g6f4 e6d7 f4h5 e3e8 g7d7 e8f8", 3, "counterThreat"), Some(5));
    }

    #[test]
    fn men_no_one_answer_saves_lose_the_lesser() {
        // Lichess 037nc: ...Rxe2 hits b2 and f2, neither guarded; a king's
        // step or a pawn's saves one, not both (Kf3 Rxb2): 5, not 4.
        let fen = "8/5p2/p3r1kp/1p4p1/2p5/2P2KP1/PP1R1P1P/8 w - - 6 34";
        assert_eq!(gain(fen, "d2e2 g5g4 f3g4 e6e2", 1, "deflection"), Some(5));
        // Lichess 038Be: ...Nxc1 leaves the a2 bishop and the h4 rook
        // loose, and only one can go: a bishop more, 8.
        let fen = "2r2rk1/pb3ppp/1p2p3/3nNn2/3P3q/P1N5/BP1Q1PPP/2R1R1K1 w - - 8 19";
        assert_eq!(gain(fen, "e1e4 d5c3 e4h4 c3e2 g1f1 e2c1", 3, "discoveredAttack"), Some(8));
        // Lichess 030zt: ...Nxe3 forks the d1 queen and the f1 rook, which
        // are guarded, and only the queen gets away: the rook for the
        // knight, 6, not 4.
        let fen = "1nq2rk1/4ppbp/p2p1np1/2p5/4PPb1/2PPB2P/P2NN1BK/3Q1R2 w - - 0 17";
        assert_eq!(gain(fen, "h3g4 f6g4 h2g1 g4e3", 1, "fork"), Some(6));
        // Lichess 0AddK: Rxe7 pins the queen to the king, and the queen
        // may only take the rook, which the d6 queen guards: 5, not 1.
        let fen = "4r3/4rq2/p3pk2/1b1pRp1p/pQpP1R1P/P1P3P1/1P3PK1/8 b - - 19 49";
        assert_eq!(gain(fen, "e8g8 b4d6 f6g7 f4f5 e6f5 e5e7", 5, "insufficientlyDefended"), Some(5));
        // Lichess 0ApVr: Qxg7 hits the h8 rook, which has no square to go
        // to and no guard to come: 6, not 1.
        let fen = "r1bqk1nr/ppb3pp/2np1p2/2p1p2Q/2P4P/2NBP3/PP3PP1/R1B1K1NR b KQkq - 3 9";
        assert_eq!(gain(fen, "e8d7 h5g4 d7e8 g4g7", 3, "hangingPiece"), Some(6));
    }

    #[test]
    fn a_check_that_gives_the_checker_away_saves_no_loose_man() {
        // Lichess 01E0R: Rxd5 leaves e4 loose under the f5 bishop, and
        // ...Qxe3+ only gives the queen away: 3, not 2.
        let fen = "1r1q3k/4B1p1/b1r2n1p/4RB2/P1pPp3/1pQ1P3/6PP/1R4K1 b - - 1 40";
        assert_eq!(gain(fen, "d8b6 d4d5 f6d5 e5d5", 3, "hangingPiece"), Some(3));
        // Lichess 08KuK: Rxd8 hits the loose c8 bishop and e8 knight, and
        // ...Rh1+ meets Kxh1: a piece more, 6, not 3.
        let fen = "R1b1n1k1/6pp/2prp3/8/8/2rB3P/5PP1/3R2K1 b - - 1 30";
        assert_eq!(gain(fen, "d6d8 d3h7 g8h7 d1d8 c3c1 g1h2", 1, "discoveredAttack"), Some(6));
    }

    #[test]
    fn a_trapped_man_sells_itself_for_what_it_takes() {
        // Lichess 02e7X: Bxh6 leaves the f1 knight trapped, and ...Nxh2
        // Kxh2 gets a pawn for it: 3, not 4.
        let fen = "r4rk1/ppp2pb1/2qp1npp/8/2P1P3/1P3QP1/PB1N1PKP/R4R2 b - - 1 15";
        assert_eq!(gain(fen, "f6e4 b2g7 e4d2 f3c6 b7c6 g7f8 d2f1 f8h6", 7, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_man_hit_more_often_than_guarded_loses_what_the_exchange_wins() {
        // Lichess 04aWV: ...Bxd6 leaves b4 hit by the bishop and the b2
        // rook, guarded by the d5 knight alone: a pawn more, 6, not 5.
        let fen = "5rk1/5ppp/R7/3N4/1P1bP3/3P2KP/1r4P1/3R4 w - - 3 28";
        assert_eq!(gain(fen, "a6d6 d4e5 g3f3 e5d6", 1, "fork"), Some(6));
        // Lichess 099UJ: Bxf6 leaves d4 hit by the bishop and the d3 rook,
        // guarded by the c5 bishop alone: 3, not 2.
        let fen = "6rk/2n2rp1/7p/p1b4N/Pp1p1BP1/1P1R4/1P5P/4R2K b - - 0 34";
        assert_eq!(gain(fen, "g7g6 f4e5 h8h7 h5f6 f7f6 e5f6", 5, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_loose_man_is_saved_by_a_trade_or_a_pawns_two_steps() {
        // Lichess 00Qm5: Qxc7 leaves e7 and e5 loose, but ...Bxg5 hxg5
        // trades and keeps Black the move to save the other: 6.
        let fen = "r2q1rk1/p3b1pp/2p5/4ppB1/4p1nP/2N5/PPP1QPP1/3R1RK1 b - - 8 15";
        assert_eq!(gain(fen, "d8c7 e2c4 g8h8 c3d5 c6d5 c4c7", 3, "pin"), Some(6));
        // Lichess 001kG: Qxc5 hits the c4 pawn, and ...b5 guards it: 3.
        let fen = "rnbq3r/1p2bkpp/p4n2/8/2pNP3/2N5/PPP3PP/R1BQ1RK1 b - - 1 11";
        assert_eq!(gain(fen, "e7c5 d1h5 f7g8 h5c5", 3, "hangingPiece"), Some(3));
    }

    #[test]
    fn an_answer_that_lets_us_mate_in_one_saves_no_loose_man() {
        // Lichess 067RG: ...Qxd2 hits b4, and ...a5 guards it but leaves
        // Qd8#: the pawn falls, 10 (round 6334's judge; c6320's too).
        let fen = "r1bqk2r/p4ppp/2N1pn2/8/1pP5/8/PP3PPP/R2QKB1R b KQkq - 1 14";
        assert_eq!(gain(fen, "d8b6 d1d6 b6f2 e1d1 f2d2 d6d2", 5, "hangingPiece"), Some(10));
        // 08Uo1: after ...Rxf7 the b2 bishop the d2 queen hits steps to c1
        // only into ...Qd1#, and falls: 6, not 3.
        let fen = "6Q1/p3r1p1/3b2kp/3B1pq1/2P4n/7P/PB3PP1/2R2K2 w - - 4 29";
        assert_eq!(gain(fen, "c1c3 g5d2 d5f7 e7f7", 3, "insufficientlyDefended"), Some(6));
    }

    #[test]
    fn the_opponents_later_captures_at_the_lines_end_leave_the_premise_alone() {
        // Lichess 05uHR: after ...cxb3, axb3 is met by ...Nxd5, and Qxa7
        // would then take a pawn the queen hit before the key move: the
        // premise, as it is for their first capture. 3, not 2.
        let fen = "3q1rk1/p4pp1/1n1b1n1p/2pPp3/Q7/1BPPBP2/Pr1N1P1P/R3K2R w KQ - 2 16";
        assert_eq!(gain(fen, "a4a3 b2d2 e1d2 c5c4 a3a6 c4b3", 3, "discoveredAttack"), Some(3));
    }

    #[test]
    fn a_trade_that_leaves_the_threats_standing_saves_no_loose_man() {
        // Lichess 0BQgG: ...Nxd3 forks the rooks; cxb5 axb5 trades a pawn
        // and saves neither: 3, not 1.
        let fen = "r4rk1/5ppp/p7/1pp1R2n/2P5/1B1P1q2/PP1Q1P1P/4R1K1 w - - 0 21";
        assert_eq!(gain(fen, "d2g5 h5f4 g5g3 f3g3 h2g3 f4d3", 5, "hangingPiece"), Some(3));
        // Lichess 06ojO: cxd5 leaves the e4 knight loose to the rook and
        // hits the c6 knight; ...Bxf3 takes a man that hits neither: 3.
        let fen = "rn1qkb1r/pp3ppp/8/2pp3b/3pn3/1BP2N1P/PP3PP1/RNBQR1K1 b kq - 0 9";
        assert_eq!(gain(fen, "b8c6 c3c4 f8e7 c4d5", 3, "insufficientlyDefended"), Some(3));
        // Lichess 07ohA: after Bxe5, ...Bxc3+ bxc3 is a trade with check
        // that leaves the bishop hitting the b8 rook and the g7 pawn: 2,
        // not 1 (a judge counts 6: Bxg7 would then trap the h8 rook, which
        // the answers' test does not see).
        let fen = "1rbqk1nr/1p1p1ppp/p1n1p3/8/1b1NPB2/2N3P1/PPP2PBP/R2QK2R b KQk - 2 8";
        assert_eq!(gain(fen, "e6e5 d4c6 b7c6 f4e5", 1, "capturingDefender"), Some(2));
    }

    #[test]
    fn a_discovered_check_nets_what_its_moved_piece_wins() {
        // ...Rb2+ unmasks the f3 bishop's check and hits the b4 queen:
        // Nxf3 takes the bishop, ...Rxb4 the queen.
        let fen = "1k1r2r1/pp3p2/7p/N3N3/3Q1P1P/5b2/6P1/5RK1 w - - 0 32";
        assert_eq!(gain(fen, "d4b4 g8g2 g1h1 g2b2 e5f3 b2b4", 3, "discoveredAttack"), Some(6));
    }

    #[test]
    fn a_pinned_man_does_not_take_back() {
        // ...Qxc6: dxc6 would give up the d4 queen to the d7 rook.
        let fen = "6k1/p2r1ppp/2Nq4/3P4/3Q4/8/PP3PPP/6K1 w - - 0 30";
        assert_eq!(gain(fen, "h2h3 d6c6", 1, "pinnedDefender"), Some(3));
    }

    #[test]
    fn a_man_of_ours_en_prise_before_the_key_move_saves_nothing_at_the_lines_end() {
        // Lichess 07FFK: ...Nxd2 takes the queen, and the knight then hits
        // both rooks. The b4 pawn the b1 rook attacks hung before the key
        // move: Rxb4 takes it and saves that rook, and ...Nxf1 still wins
        // the other for the knight. 11, not 9.
        let fen = "1q1k3r/1b1p2p1/pN2pp2/2P1b3/1p1nP3/3P1BP1/P2Q1P2/1R3RK1 w - - 3 21";
        assert_eq!(gain(fen, "g1g2 h8h2 g2h2 d4f3 h2g2 f3d2", 5, "hangingPiece"), Some(11));
    }

    #[test]
    fn a_man_of_ours_only_a_pinned_man_hits_saves_nothing_at_the_lines_end() {
        // Lichess 0B9Ov: after Qxd7 the a7 queen, pinned to its king on the
        // a-file by the a4 rook, is lost for the rook; it "hits" the d7
        // queen and the f2 pawn along lines it may not take on, so neither
        // saves it. 9, not 5.
        let fen = "kq6/nr1r4/R7/7p/R2pQ1p1/6P1/5P1K/8 b - - 6 54";
        assert_eq!(gain(fen, "d4d3 a6a7 b8a7 e4e8 b7b8 e8d7", 5, "pinnedDefender"), Some(9));
    }

    #[test]
    fn a_check_saves_no_loose_man_our_king_takes_in_answer() {
        // Lichess 09TiY: Ra8+ skewers the king to the g8 rook, and Rxg8
        // leaves the g4 pawn unguarded beside our king; ...Bf4+ is met by
        // Kxg4. 6, not 5.
        let fen = "3k2r1/R7/1p1p4/pP2pB2/P3P1p1/3P2K1/3b4/8 b - - 1 35";
        assert_eq!(gain(fen, "d2e3 a7a8 d8e7 a8g8", 1, "skewer"), Some(6));
    }

    #[test]
    fn a_spite_check_saves_no_loose_man() {
        // Lichess 07s3C: after Rxh8 the d8 bishop is pinned to the king and
        // lost; ...Rd2+ hits only the b2 pawn, Kg3 steps off, and the bishop
        // still falls (round c6301's judge: 8; before, the check saved it:
        // 5).
        let fen = "1k5r/p1p2R1p/1p1p4/3P4/3n1RBb/6r1/PP5K/8 b - - 3 29";
        assert_eq!(gain(fen, "g3d3 f7f8 h4d8 f8h8", 3, "hangingPiece"), Some(8));
    }

    #[test]
    fn a_check_that_skewers_a_man_behind_our_king_is_no_spite_check() {
        // The d5 knight hangs to the b3 bishop; ...Ra1+ checks along the
        // first rank through our king to the h1 queen: it wins the queen,
        // and saves the knight besides.
        let pos = position("r5k1/8/8/3n4/8/1B6/8/4K2Q b - - 0 1");
        let premise = position("r5k1/8/8/3n4/8/8/2B4Q/4K3 b - - 0 1");
        assert_eq!(lost_loose_men(&pos, &premise), 0);
    }

    #[test]
    fn a_forking_check_that_wins_a_loose_pawn_answers_their_capture() {
        // Lichess 07gVt: Kxe1 takes the knight, and ...Qa1+ hits the loose
        // a2 pawn; every answer allows ...Qxa2 (round c6308's judge: 3;
        // before, a pawn was no fork's second man: 2). 02z15: bxc5, and
        // ...Qh5+ wins the pawn back: 9, not 8.
        let fen = "8/ppQ3qk/3p2pp/4n3/8/1P6/P7/4R1K1 w - - 1 37";
        assert_eq!(gain(fen, "c7d6 e5f3 g1f2 f3e1", 3, "insufficientlyDefended"), Some(3));
        let fen = "r6k/qb3Q1p/p4p2/2p5/1P6/2P2N2/P4PrP/R3R1K1 w - - 0 21";
        assert_eq!(gain(fen, "g1g2 b7f3 g2f3 a7f7", 3, "hangingPiece"), Some(9));
    }

    #[test]
    fn a_capture_at_the_lines_end_that_walks_into_a_forced_mate_is_not_played() {
        // Lichess 08O6I: ...Rxd6 takes the loose rook, and Re8+ ...Rf8
        // Rxf8# follows: Black keeps off it, and the queen won stands whole
        // (round c6309's judge: 6; before, 1). 03uhf: ...gxf6 Bxf6+ ...Kg8
        // Qg6#: 3, as round 6010's judge counts.
        let fen = "3r2k1/pp3r1p/n1pBRppQ/8/8/1Pq4P/2P2PP1/3R1K2 b - - 3 25";
        assert_eq!(gain(fen, "c3c2 d1e1 c2d3 f1g1 d3d6 e6d6", 5, "insufficientlyDefended"), Some(6));
        let fen = "r1b2rk1/ppq2pp1/1npb3p/8/3PN2B/1B5P/PPQ2PP1/3RR2K b - - 7 20";
        assert_eq!(gain(fen, "c8f5 e4f6 g8h8 c2f5", 3, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_race_with_an_escort_an_en_passant_or_a_guarded_queening_square_is_not_read() {
        let quiet = position("8/8/8/8/8/8/8/K6k w - - 0 1");
        // The a5 pawn runs, but Black's g2 pawn queens beside its king.
        assert_eq!(queening_race(&position("8/8/8/P7/8/8/5Kpk/8 b - - 0 1"), &quiet), None);
        assert_eq!(queening_race(&position("8/8/8/P7/8/8/5K1k/8 b - - 0 1"), &quiet), Some(Color::White));
        // ...dxe3 en passant takes the runner.
        assert_eq!(queening_race(&position("8/8/8/8/2KpP3/8/8/k7 b - e3 0 1"), &quiet), None);
        // h8=Q covers a1, but the b1 king guards it: the queens come off.
        assert_eq!(queening_race(&position("8/8/7P/8/4K3/p7/8/1k6 w - - 0 1"), &quiet), None);
        assert_eq!(queening_race(&position("8/8/7P/8/4K3/p7/8/3k4 w - - 0 1"), &quiet), Some(Color::White));
    }

    #[test]
    fn a_trade_they_start_saves_no_loose_man_worth_more_than_it_takes() {
        // Lichess 04VV5: after Qxe5 the d6 rook and f1 bishop are loose and
        // f5 is hit three times; ...fxe4 takes a pawn that hits f5, but
        // Qxd6 takes the rook instead of taking back, and ...Rd1, which
        // saves both pieces, leaves f5 to exf5 (round 6319's judge: 10;
        // before, the trade saved every man: 9).
        let fen = "5r2/p5pk/b2r3p/2QBqp2/4P2N/P5PP/5P2/5RK1 b - - 0 31";
        assert_eq!(gain(fen, "a6f1 d5g8 h7g8 c5e5", 3, "hangingPiece"), Some(10));
    }

    #[test]
    fn an_answer_that_meets_a_mate_threat_costs_the_exchange_where_it_lands() {
        // Lichess 05ZTT: after ...Qxg3 takes the loose bishop's guard, every
        // answer that meets ...Qg2# gives up the h3 bishop, which the
        // exchange on its square costs (c6313's judge: 4; 2 where an answer
        // was costed by the man it moves alone). 09RTZ: ...Rxf2 meets
        // ...Qh1# and costs the exchange (4, not 2).
        let fen = "6r1/4nk2/2pb1n2/Pp1p1p2/8/Pq3PPB/1B1QP1K1/R1R5 w - - 1 28";
        assert_eq!(gain(fen, "g2f1 f6e4 f3e4 b3g3", 3, "hangingPiece"), Some(4));
        let fen = "r1b2rk1/pppp1ppp/8/2bPn3/2P3nq/1PNB3P/P3NPP1/R1BQ1RK1 w - - 1 14";
        assert_eq!(gain(fen, "h3g4 e5g4 c1f4 g4f2", 1, "pin"), Some(4));
    }

    #[test]
    fn a_king_that_takes_in_answer_to_our_last_check_may_walk_into_a_fork() {
        // Lichess 028yE: ...Bxg2+ Kxg2, and ...Qe4+ forks the king and the
        // undefended c2 pawn (rounds 6307 and 6307b: 7; before, 6). 03W6X:
        // ...Rxf2+ Kxf2, and ...Qc2+ forks the king and the b1 rook: 9, not 4.
        let fen = "8/6k1/6b1/1p2q3/8/7p/2PQ2P1/5R1K w - - 0 64";
        assert_eq!(gain(fen, "g2h3 g6e4 d2g2 e4g2", 3, "insufficientlyDefended"), Some(7));
        let fen = "5rk1/4pp2/1Q1p2p1/3P4/r1P5/2q2PP1/6KP/1R2R3 w - - 0 30";
        assert_eq!(gain(fen, "e1e7 a4a2 b6f2 a2f2", 3, "insufficientlyDefended"), Some(9));
    }

    #[test]
    fn their_capture_we_take_back_at_the_lines_end_leaves_their_loose_men_to_fall() {
        // Lichess 09Ebl: ...Nxf1 Kxf1, and the c6 queen hits the loose a6 and
        // d6 pawns: one falls (round 6331's judge: 3; before, 2).
        let fen = "8/3Q2pk/pq1p1r1p/1p6/1pn1N3/7P/P2r1PP1/2R2RK1 b - - 9 35";
        assert_eq!(gain(fen, "f6f4 e4d2 c4d2 c1c6 b6c6 d7c6", 5, "hangingPiece"), Some(3));
        // 037Zo: hxg4 ...fxg4, and the b2 pawn the e2 rook hits falls.
        let fen = "4r3/1p2r1k1/p2p4/4bpp1/3B2n1/1BP3P1/PP2R2P/4R1K1 w - - 6 38";
        assert_eq!(gain(fen, "h2h3 e5d4 c3d4 e7e2 e1e2 e8e2", 3, "insufficientlyDefended"), Some(4));
        // 00VDN: an exchange that goes on past our recapture is the
        // search's: Rxd4 ...Rxd4 Kxd4 nets White 5, and the fire 1.
        let fen = "3r4/3r2k1/p7/3p2p1/3R2Pp/1P2PK2/P2R4/8 w - - 0 38";
        assert_eq!(gain(fen, "e3e4 d5e4 f3e3 d7d4", 1, "discoveredAttack"), Some(1));
    }

    #[test]
    fn a_pawn_that_queens_next_move_whatever_they_play_wins_a_queen() {
        // Lichess 00Uo9: fxe7 takes the bishop, and no answer of Black's
        // takes, blocks or covers e8 or gives check: 8 (before, 0).
        let fen = "4Q3/5ppk/2p2b1p/1pq1pP2/2r1B3/5P1P/6P1/5R1K b - - 3 33";
        assert_eq!(gain(fen, "c5e7 e8e7 f6e7 f5f6 c4e4 f6e7", 5, "hangingPiece"), Some(8));
        // 02UTq: c6 is taken and b8=Q follows, but ...d2 and ...d1=Q
        // answer it: a race, not a queen won (3).
        let fen = "8/1P6/2n5/p1Pp4/P4K2/7k/8/8 b - - 1 62";
        assert_eq!(gain(fen, "d5d4 f4e4 h3g4 e4d5 d4d3 d5c6", 5, "hangingPiece"), Some(3));
        // dxe7 takes the knight, and ...Rb7 pins the e7 pawn to the h7 king:
        // e8=Q is no longer legal (3).
        assert_eq!(gain("3B4/7K/2nP4/8/8/1rP5/8/k7 b - - 0 1", "c6e7 d6e7", 1, "hangingPiece"), Some(3));
        // The e7 pawn stood ready to queen before Bxd5: no part of the
        // tactic (3).
        assert_eq!(gain("8/4P3/8/8/8/2n2B1K/8/k7 b - - 0 1", "c3d5 f3d5", 1, "hangingPiece"), Some(3));
        // Lichess 07379: ...Kxe8 takes the new queen, and the a2 pawn queens,
        // but it ran outside White's king's square before the key move:
        // the pawn taken alone (1; c6321's judge).
        let fen = "8/7p/2P1k1p1/4P3/3K2P1/p7/6P1/8 w - - 0 39";
        assert_eq!(gain(fen, "d4c4 a3a2 c6c7 e6d7 e5e6 d7c7 e6e7 c7d7 e7e8q d7e8", 9, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_man_the_line_saved_and_gave_up_again_is_no_premise() {
        // Lichess 03fk0: the h7 bishop stood en prise to the h8 king before
        // the key move; Qh5 guards it, Qxg5 leaves it, and ...Kxh7 takes it
        // (round 6316's judge: 6; before, premise: 9). 04j0p: Qh6 guards
        // the g7 bishop the king hits, Qxh3 leaves it: 2, not 5.
        let fen = "r1bq1rk1/pp3ppB/2p1p3/8/2NP4/2n1P3/P4PPP/1R1Q1RK1 b - - 0 15";
        assert_eq!(gain(fen, "g8h8 d1h5 d8g5 h5g5", 3, "hangingPiece"), Some(6));
        let fen = "6k1/3qp1Bp/n1p3p1/2PP4/pr4P1/5r2/1P1Q1P2/1K1R3R b - - 0 27";
        assert_eq!(gain(fen, "d7g4 d2h6 f3h3 h6h3 g4h3 h1h3", 3, "insufficientlyDefended"), Some(2));
    }

    #[test]
    fn a_pawn_no_king_catches_at_the_lines_end_queens() {
        // Lichess 02D9k: ...gxh5 takes the pawn and leaves the h-pawn out of
        // reach of White's king on a4: the pawn and a queen less it, 9
        // (round 6307's judges: 9 and 10; before, 1). 09eSu: bxa7 queens
        // next move, the f7 king too far from a8: the pin nets 8, not 0.
        let fen = "8/5p2/6p1/2k3P1/K1n4P/4N3/8/8 w - - 0 63";
        assert_eq!(gain(fen, "e3c4 c5c4 h4h5 g6h5", 3, "hangingPiece"), Some(9));
        let fen = "R5k1/1r4p1/1P3p1p/3p4/5p2/7P/6PK/8 b - - 1 42";
        assert_eq!(gain(fen, "g8f7 a8a7 b7a7 b6a7", 1, "pin"), Some(8));
        // 0A4mX: ...bxa4 leaves the a-pawn running, and cxd5 takes a pawn
        // meanwhile: 7 (the judge of round c6307), not 8.
        let fen = "8/8/5k2/1ppp1p1p/5K1P/PPP3P1/8/8 w - - 0 38";
        assert_eq!(gain(fen, "a3a4 c5c4 b3c4 b5a4", 1, "deflection"), Some(7));
        // 0CFUA: both sides' pawns run, and ...a1=Q comes first and covers h8.
        let fen = "8/kp6/p7/4q3/P7/7P/6QK/8 w - - 2 42";
        assert_eq!(gain(fen, "g2g3 e5g3 h2g3 b7b5 h3h4 b5a4", 5, "hangingPiece"), Some(9));
        // 09Lzt: the g-pawn ran before the key move too (the premise), so
        // ...Kxh3 nets its pawn alone; 07Lu8: White's g-pawn outruns the
        // king, but Black's h-pawn queens beside its own king, and a race
        // read against the solver counts nothing anyway.
        let fen = "8/8/1p5p/1K4p1/8/2P3kP/P7/8 w - - 2 45";
        assert_eq!(gain(fen, "b5b6 g3h3 b6b5 g5g4 c3c4 g4g3 c4c5 g3g2", 1, "hangingPiece"), Some(1));
        let fen = "8/6K1/8/6pp/6k1/6P1/7P/8 w - - 2 51";
        assert_eq!(gain(fen, "g7h6 h5h4 h6g6 h4h3 g6h6 g4f3 h6g5 f3g2 g5f4 g2h2", 9, "hangingPiece"), Some(1));
    }

    #[test]
    fn a_capture_at_the_lines_end_a_forking_check_answers_wins_only_what_the_fork_leaves() {
        // Lichess 02fM9: after Nxd4 Black would take the f3 queen with the
        // rook, but Nc6+ forks king and queen; ...Bxd4 takes the knight
        // instead (round 6301's judge: 2; before, 1). 02WAN: ...gxh4 takes
        // the h4 bishop into Nf6+, which forks king, queen and rook: 3, not 0.
        let fen = "5r2/k1p1qPp1/pb5p/1p6/P2r4/2N2Q2/1P3PPP/R4RK1 b - - 0 21";
        assert_eq!(gain(fen, "f8f7 c3b5 a7b8 b5d4", 3, "insufficientlyDefended"), Some(2));
        let fen = "r3k1r1/1ppq2p1/1b1p2bp/pP6/P2PP1PB/7P/8/RN1Q1RK1 b q - 1 18";
        assert_eq!(gain(fen, "g6e4 b1c3 g7g5 c3e4", 3, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_check_along_the_line_through_our_king_guards_the_man_behind_it() {
        // The h1 knight is trapped beside our g1 king (the f7 rook holds
        // f2, the h2 pawn g3). ...Rg8+ would leave it to Kxh1, but ...Rb1+
        // checks along the first rank, through the king to h1: the king may
        // not take it, and nothing is lost.
        let pos = position("kr6/5R2/8/8/8/8/7P/6Kn b - - 0 1");
        let premise = position("kr6/5R2/8/8/8/8/7P/6K1 b - - 0 1");
        assert_eq!(lost_loose_men(&pos, &premise), 0);
        // Without the rook's check along the rank, the knight falls.
        let pos = position("k7/5R2/8/8/8/8/7P/6Kn b - - 0 1");
        let premise = position("k7/5R2/8/8/8/8/7P/6K1 b - - 0 1");
        assert_eq!(lost_loose_men(&pos, &premise), 3);
    }

    #[test]
    fn a_loose_man_that_steps_where_we_hit_it_more_often_than_it_is_guarded_is_not_saved() {
        // Lichess 0BZrl: after Rxf6 the f4 pawn hangs to the rook. ...f3,
        // guarded by e4, is hit by g2 and the e2 bishop: gxf3 exf3 Bxf3
        // wins it all the same. 6, not 5.
        let fen = "r4r1k/1b1R4/p3Q3/npp3q1/4pp1P/P1P5/2P1BPP1/5RK1 b - - 0 27";
        assert_eq!(gain(fen, "g5h4 e6e5 f8f6 d7f7 a5c6 e5f6 h4f6 f7f6", 3, "pin"), Some(6));
        // Lichess 0CZjr: after Qxe5 the h8 rook hangs to the queen. ...Nf6
        // blocks, and is hit by the queen and the f1 rook, guarded by the d8
        // bishop: Rxf6 Bxf6 Qxf6 wins 1 for it, not the rook's 5. 10, not 9
        // or 14.
        let fen = "r1k3nr/pbppbQqp/1p6/3PP3/8/2N1B3/PPP3PP/R4RK1 b - - 2 16";
        assert_eq!(gain(fen, "g7e5 f7e8 e7d8 e8e5", 3, "hangingPiece"), Some(10));
    }

    #[test]
    fn a_guard_saves_a_loose_man_only_where_the_exchange_there_no_longer_pays() {
        // Lichess 0B0Qd: after Nxc8 the d7 rook hits a7 and h7. ...Kg8
        // guards h7, and a7, hit by the rook and the knight and guarded by
        // the a2 rook alone, still falls (...b5 Nxa7): 6, not 5.
        let fen = "r5k1/p2R3p/1pN2pp1/3p4/6P1/4P1KP/r7/8 b - - 2 38";
        assert_eq!(gain(fen, "a8c8 c6e7 g8f8 e7c8", 1, "fork"), Some(6));
        // Lichess 004u0: after Qxd7 the queen hits b7, and g7 with the g3
        // rook; ...R5e7 guards g7, and b7 behind the queen: nothing more
        // falls, 4 (5 where the guard behind our man goes unseen).
        let fen = "6k1/ppq3pp/2p1rp2/4r3/4p1Q1/P5RP/1P3PP1/3R2K1 b - - 3 34";
        assert_eq!(gain(fen, "e6e8 d1d7 c7d7 g4d7", 3, "hangingPiece"), Some(4));
        // Lichess 07SwC: after Rxf4 the c4 rook, pinned to its king by the
        // queen and hit by the f4 rook, is guarded by ...b5, and the
        // exchange there (Rxc4 bxc4 Qxc4+) nets a pawn, not the rook: 5,
        // not 9.
        let fen = "r5k1/pp5p/2p3p1/5p2/2P1r1q1/1Q3R2/PP4P1/5RK1 b - - 3 29";
        assert_eq!(gain(fen, "e4c4 f3f4 g4f4 f1f4", 3, "pinnedDefender"), Some(5));
    }

    #[test]
    fn a_guard_pinned_to_its_king_guards_only_against_its_pinner() {
        // Lichess 03eUB: after Bxf6 Bxf6 Qxf6 the queen hits d6 and g6,
        // whose only guard, the f7 pawn, the d5 bishop pins to the king: no
        // answer keeps both pawns, 4, not 3.
        let fen = "rq4k1/1p2rp2/p2p1np1/2pB2B1/2Pb4/NP3Q1P/P5P1/5R1K b - - 3 21";
        assert_eq!(gain(fen, "b8f8 g5f6 d4f6 f3f6", 1, "insufficientlyDefended"), Some(4));
        // Lichess 09LYf: the c4 queen pins the e2 rook, which guards c2 all
        // the same: once the queen takes there it is free, so b3 keeps both
        // pawns and nothing more falls: 4, not 5.
        let fen = "8/4r1k1/Q2b1p2/1p3P1p/2q1N1pP/8/PPP2PP1/4RK2 w - - 3 31";
        assert_eq!(gain(fen, "e1e2 e7e4 a6b7 e4e7 b7e7 d6e7", 5, "pinnedDefender"), Some(4));
    }

    #[test]
    fn a_loose_man_en_prise_before_the_key_move_is_the_premise_at_the_lines_end() {
        // Lichess 065V8: after Nxf2 the knight hits the h1 rook and the g4
        // pawn, which the same knight hit before the key move: the fork
        // nets the rook, and the pawn it could always take is no part of
        // it, 9 (judges have read it both ways: docs/gain-judging.md).
        let fen = "rn1qk2r/4b2p/p2p1n2/2pPp3/1pP1Ppb1/1P3P2/PB1KNQ2/R4BNR w kq - 0 17";
        assert_eq!(gain(fen, "f3g4 f6e4 d2c2 e4f2", 3, "hangingPiece"), Some(9));
    }

    #[test]
    fn a_late_take_back_an_earlier_fire_counts_is_not_charged_again() {
        // Lichess 0AfWu: ...gxf4 takes the rook, and exf4, after Qc3+
        // ...Kg8, takes the pawn back: the key move's 4 (5 - 1). The trap
        // of ...Kg8 nets the knight ...Qxf8 takes, 3, not 2, and the line
        // adds up (-5 to +2).
        let fen = "r3qr1k/b2N1p2/p1pp3p/6p1/1PP2R2/PQ2P1P1/6KP/4R3 w - - 4 28";
        let moves = "d7f8 g5f4 b3c3 h8g8 e3f4 e8f8";
        assert_eq!(gain(fen, moves, 1, "insufficientlyDefended"), Some(4));
        assert_eq!(gain(fen, moves, 3, "trappedPiece"), Some(3));
    }

    #[test]
    fn where_we_threaten_mate_only_an_answer_that_meets_it_saves_a_loose_man() {
        // Lichess 08U8Z: after Bxe5 the bishop hits the c7 queen and covers
        // h8, where Qh8# is threatened; ...Qxe5 meets the mate and gives the
        // queen for the bishop (Qxe5), as ...f6 does (Bxc7): 7, not 1.
        let fen = "2r2rk1/pp3p2/4p1p1/n2pq3/3Bn1Q1/2P4P/PP3P2/R3KBR1 b Q - 1 20";
        assert_eq!(gain(fen, "e5c7 g4h5 e6e5 d4e5", 3, "insufficientlyDefended"), Some(7));
    }

    #[test]
    fn meeting_a_mate_threat_costs_no_more_than_pins_let_us_take() {
        // Only ...Qg5 meets Qg7#; the h6 pawn that "guards" g5 is pinned to
        // its king by Rh3, so Rxg5 wins the queen: the loose knight saved,
        // the queen given (9; costed with the pinned pawn as a guard, 4).
        let after = position("r2qrb1k/5Q2/2p4p/p3p3/1n2P1R1/P2B3R/1PP3PP/7K b - - 0 20");
        let premise = position("r2qrb1k/5Q2/2p4p/p3p3/1n2P1R1/3B3R/PPP3PP/7K b - - 0 20");
        assert_eq!(lost_loose_men(&after, &premise), 9);
        // But a guard pinned by our only taker still guards: only ...Nc7
        // meets Qxe8#, c7 is hit by the c8 queen alone, which pins the e8
        // knight that guards it, and Qxc7 frees it for ...Nxc7: nothing lost.
        let after = position("2Q1n2k/8/n4N1P/8/8/8/8/K7 b - - 0 1");
        let premise = position("4n2k/8/n4N1P/8/8/8/8/K2Q4 w - - 0 1");
        assert_eq!(lost_loose_men(&after, &premise), 0);
    }

    #[test]
    fn a_loose_man_that_steps_off_a_pin_gives_up_the_man_behind_it() {
        // Lichess 04sEF: after Qxe5 the d4 knight, hit by the queen and the
        // d1 rook and guarded by the d8 queen, is pinned to it: a step away
        // loses the queen to Rxd8, so the knight is lost (3): 4, not 1.
        let fen = "r3qrk1/3R1pp1/2p4p/2P1p2Q/3nP3/6PB/5PKP/3R4 b - - 1 32";
        assert_eq!(gain(fen, "a8d8 d7d8 e8d8 h5e5", 1, "overloading"), Some(4));
    }

    #[test]
    fn a_capture_that_collects_an_earlier_fires_man_counts_from_after_it() {
        // Lichess 01VBW: Ng6+ forks the f8 rook, and Nxf8+ takes it with a
        // discovered attack on the d7 queen: the fork nets the rook for the
        // bishop (2), the discovery the queen less the knight the end search
        // gives back (4, not 9: the rook counted again).
        let fen = "2b1rr1k/3q2pB/p1p2b2/PpPp4/1P1P1Np1/8/2Q2P1P/R4RK1 b - - 2 21";
        assert_eq!(gain(fen, "f6d4 f4g6 h8h7 g6f8 h7g8 f8d7", 1, "fork"), Some(2));
        assert_eq!(gain(fen, "f6d4 f4g6 h8h7 g6f8 h7g8 f8d7", 3, "discoveredAttack"), Some(4));
        // Lichess 02Chp: Bxh6+ skewers king and f8 rook, and Bxf8+ takes it
        // with a discovered attack on the c5 bishop: 2, not 7.
        let fen = "r4rk1/p4pp1/4b2p/2bp4/4qB1Q/6R1/PP2BPPP/5RK1 b - - 5 21";
        assert_eq!(gain(fen, "e4e2 g3g7 g8g7 f4h6 g7h7 h6f8 h7g8 f8c5", 5, "discoveredAttack"), Some(2));
    }

    #[test]
    fn a_capture_that_goes_on_with_an_earlier_fires_exchange_counts_from_after_it() {
        // Lichess 07gRJ: ...Nxh3+ Bxh3 ...Qxh3 is the first fire's run on h3
        // (the pawn, 1), and the double attack of ...Qxh3 nets what follows:
        // ...Qxg3+ and the e3 pawn, 4, not 5.
        let fen = "rn2k2r/3q4/2p2pp1/p2p1Nn1/P3p3/1P2P2P/1B4B1/R2Q1RK1 w kq - 0 23";
        assert_eq!(gain(fen, "f5g3 g5h3 g2h3 d7h3 d1e2 h3g3", 1, "insufficientlyDefended"), Some(1));
        assert_eq!(gain(fen, "f5g3 g5h3 g2h3 d7h3 d1e2 h3g3", 3, "doubleAttack"), Some(4));
    }

    #[test]
    fn a_loose_man_pinned_to_its_king_starts_no_trade_off_the_pins_line() {
        // Lichess 05Uxg: Bxc4 takes a pawn and pins the e6 rook to the g8
        // king. The rook hits the e5 queen, but cannot take it: no trade
        // saves it, and Bxe6+ wins the exchange. 3, not 1.
        let fen = "7r/3b1ppk/1q1r3p/4Q1PP/2p1PK2/PnP2P2/4B3/6RR b - - 4 35";
        assert_eq!(gain(fen, "d6e6 g5g6 f7g6 h5g6 h7g8 e2c4", 5, "hangingPiece"), Some(3));
    }

    #[test]
    fn a_man_pinned_to_its_king_puts_nothing_en_prise_off_its_line() {
        // Lichess 042kS: before Nxd5 the f6 queen is hit by the e7 bishop,
        // which the f7 rook pins to its king: the queen was not en prise,
        // so its safety is no premise, and after ...Rxf1+ Qxf1 the rook
        // for the bishop stands (...exd5 loses the g2 rook): 2, not -1.
        let fen = "8/1b1kbR2/p3pQ2/1pq1P3/P1p5/2N5/1P4r1/3RKB1r b - - 2 28";
        assert_eq!(gain(fen, "b7d5 c3d5 h1f1 f6f1", 3, "hangingPiece"), Some(2));
    }
}
