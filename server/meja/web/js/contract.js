// @ts-check
// The game-module contract of the page: what a game's page module exports, and what the shell
// passes it. The twin of the server's GamePlugin (meja.games): the shell never names a game,
// it reaches each one through these types. Types only (JSDoc, checked by `make lint`'s
// TypeScript pass); nothing here runs.
//
// A game's page module is the ES module at its catalog entry's `page` ("/games/<name>/page.js"),
// imported by name when the catalog arrives (games.js): a GameModule. The table screen
// (table.js), the guided lesson (learn.js) and the replay (replay.js) each build the game's part
// of a table with `createTable(host)`, passing a Host, and draw each view through the GameTable
// it returns. A game whose `page` is null (or whose module does not load) is drawn by the
// generic renderer (generic.js, a GameTable of its own): its view's fields as a list, its legal
// actions as buttons.
//
// Everything a game draws comes from the seat's view and the table map; the page decides nothing
// about legality (the view's `legal` and the reasons the game's view gives do).

/**
 * A value of a strings table: a string with {placeholders}, a list of lines, or a function of
 * the parameters where the grammar needs it (plurals).
 * @typedef {string | string[] | ((params: Record<string, any>) => string | string[])} Words
 */

/**
 * The words of a game (or the shell) in each of the page's languages: {en, id, vi, nb}, each
 * language's table with the same keys (a browser test fails when one is missing).
 * @typedef {Record<string, Record<string, Words>>} Strings
 */

/**
 * The strings lookup a module gets (host.t): the game's words, then the shell's, in the page's
 * language, {placeholders} filled from `params`; a missing key is said from the key. A key
 * whose words are a list of lines gives the list.
 * @typedef {(key: string, params?: Record<string, unknown>) => string} Text
 */

/**
 * One action of the game, as the view's `legal` lists it and host.act sends it (PROTOCOL.md
 * beside the game's folder): its `kind` and its fields.
 * @typedef {{kind: string} & Record<string, any>} Action
 */

/** A seat's view of the game (the game's `View.to_wire`): its own fields, and `legal`. @typedef {Record<string, any>} View */

/** One of the game's events in an update (`kind`, the `seat` it concerns, its fields). @typedef {{kind: string, seat?: number | null} & Record<string, any>} GameEvent */

/** The table map (PROTOCOL.md 7.1): `preset`, `options` in full, `seats`, `status`... @typedef {Record<string, any>} TableMap */

/**
 * A modal choice the game asks for (host.choose).
 * @typedef {object} Choice
 * @property {string} [id] the dialog's element id, for the game's style and tests
 * @property {string} title
 * @property {string} [text]
 * @property {{value: unknown, content?: (Node | string)[], className?: string, dataset?: Record<string, string>, held?: number,
 *   action?: Action}[]} choices
 *   `held`: how many of the player's cards go with a choice, said under it; `action`: the action picking it
 *   sends, so that a suggested move's answer is ringed and focused when the choice opens
 * @property {string | null} [cancel] the Cancel button's words; null: the choice cannot be dodged
 */

/**
 * What the module may call back.
 * @typedef {object} Host
 * @property {Text} t the game's strings, then the shell's, in the page's language
 * @property {(tag: string, attrs?: Record<string, any> | null, ...children: any[]) => HTMLElement} el the DOM helper of ui.js
 * @property {(action: Action) => void} act send one of the view's `legal` actions
 * @property {number | null} seat this page's seat (null: a spectator)
 * @property {boolean} isHost whether this page hosts the table
 * @property {TableMap | null} table the table map of the latest state or update
 * @property {boolean} tv true on the shared screen (a spectator; draw large)
 * @property {(seat: number) => string} seatName "You", "Bot 3" or the player's name
 * @property {(text: string) => void} say a short notice over the hand
 * @property {(choice: Choice) => Promise<any>} choose a modal choice: its value, or null when cancelled
 * @property {() => void} closeChoice close it (its promise resolves null)
 * @property {() => void} focusHand focus the hand when it is next drawn (after the player's own move)
 * @property {(name: string) => void} [sound] sound a moment (sound.js) now, as the player set the sound
 * @property {() => void} redraw draw the table again from the latest view (a setting of the module's own changed)
 */

/**
 * A seat as the frame says it (by seat number).
 * @typedef {object} SeatFrame
 * @property {string} [count] said in the seat's box
 * @property {boolean} [active] the seat's decision holds the game (its box's turn marker)
 * @property {string} [score]
 * @property {number} [cards] how many cards the seat holds face down, drawn as backs
 * @property {string} [badge] a word the game wants seen on the seat, such as a call that stands
 */

/**
 * A card of the player's hand.
 * @typedef {object} HandCard
 * @property {string} id what `play(id)` gets
 * @property {string} label its accessible name
 * @property {boolean} playable
 * @property {(button: HTMLElement) => unknown} face draws the card's face inside its button
 */

/**
 * The round's result, under its banner.
 * @typedef {object} Summary
 * @property {number} [round]
 * @property {string} [headline] a line under the banner ("Bot 2 went out")
 * @property {Node} [details]
 * @property {string | null} [dealCode]
 * @property {boolean} [match] the match is over (a banner for `winners`)
 * @property {unknown} [winners]
 * @property {Action | null} [next] the action of "Next round"
 * @property {boolean} [won] this seat (or its side) won the round (its sound)
 */

/**
 * A single key that clicks one of the game's buttons (unless it is disabled or hidden).
 * @typedef {object} Key
 * @property {string} key one character, from the game's strings (it may differ by language)
 * @property {string} label
 * @property {HTMLElement} button
 */

/**
 * What `render(view)` says the frame shows.
 * @typedef {object} Frame
 * @property {number} [round]
 * @property {{text: string, mine?: boolean} | null} [status] `mine`: a decision of this seat waits
 *   (out of turn too): the turn line is highlighted, the turn's sound plays, a hidden tab's title says so
 * @property {SeatFrame[] | null} [seats]
 * @property {HandCard[] | null} [hand] null: no hand widget
 * @property {number | null} [handMost] the most cards the hand can hold before the next deal, if
 *   the game knows it: a phone keeps the room of a second row only where that many need it
 *   (absent: a usual hand's)
 * @property {Summary | null} [summary]
 * @property {number | null} [direction] 1: clockwise (the next seat is seat + 1), -1: the other way
 * @property {string | null} [target] what the match is played to, for the bar
 * @property {Key[]} [keys]
 * @property {boolean} [handOnly] the player asked for the hand alone (a phone beside a shared
 *   screen): the other seats' boxes are not drawn; a spectator's frame ignores it
 */

/**
 * An event as a move people see.
 * @typedef {object} Move
 * @property {number | null} seat null: a move of the whole table (a new round)
 * @property {string} text for the caption by the pile ("Bot 2 played 8♠")
 * @property {string | Node} [short] for the seat's box ("played 8♠"): words, or the game's own drawing
 *   of them (a Node, made anew for each call: a sign in its colour), whose text says the same
 * @property {{piece: Node, from: string | Element, to: string | Element} | null} [motion] the shell flies
 *   `piece` from one to the other ("seat": that seat's box, or the player's hand), unless the
 *   player prefers reduced motion
 * @property {string | null} [sound] the moment's sound (sound.js: "play", "draw", "shuffle", "turn",
 *   "call", "win"; null: none); without it the shell hears the piece's way
 */

/**
 * The game's part of a table screen: what `createTable(host)` returns.
 * @typedef {object} GameTable
 * @property {Node} centre what lies in the middle of the table
 * @property {Node | null} [actions] the game's own buttons, under the hand
 * @property {(view: View) => Frame} render draw the view, and say what the frame shows
 * @property {(id: string) => void} play a card of the hand was chosen (click, Enter or Space)
 * @property {(event: GameEvent) => string | null} logLine the move log's line for one of the game's events
 * @property {(event: GameEvent) => Move | null} [move] without it, the log line is the caption;
 *   the seats' last moves start afresh at the game's `round_start` event
 * @property {(event: GameEvent) => {node: Node, ms: number} | null} hold how to show an event the
 *   table holds for (GameInfo.hold_events): the shell shows `node` for `ms` first
 * @property {(action: Action) => Element | null} [controlFor] the game's own control that sends
 *   `action` (its Draw button, a bid, a choice of an open chooser), for the shell to point at a
 *   suggested move; the shell finds a card of the hand and "Next round" itself
 * @property {() => void} destroy
 */

/**
 * What a deal code names: the preset and the seat count, and whatever else the game reads.
 * @typedef {{preset: string, seats: number} & Record<string, unknown>} DealCodeSpec
 */

/**
 * A game's page module.
 * @typedef {object} GameModule
 * @property {Strings} strings the game's words. The shell looks up "preset.<name>", each option
 *   spec's `label` and "<label>.<choice>" ("<label>.value", given {n}: a number option's value in
 *   its unit), "level.<name>" (a bot level), "rules.<preset>" (a list of lines: the rules in
 *   brief, for the host form) and "game.title". A game may also override the shell's own words
 *   for its table ("table.round": "Hand {n}" where the game says hand). A game whose strings have
 *   "table.focus" (and "table.focus.hint") offers Focus, the hand alone on a phone: it keeps the
 *   choice in localStorage "meja.<game>.focus" ("on"/"off", read when its table is created), and
 *   a seat's lobby offers the same choice before the start (lobby.js focusKey).
 * @property {string} [stylesheet] the URL of the game's CSS; linked, and loaded, before use (the
 *   table screen's root has class `tv` on the shared screen, and `data-game` the game's name: the
 *   sheet stays in the page once loaded, so its rules name that root). An element of the game's
 *   table with class `fit-line` (one line of words in a narrow box) is made smaller to fit it
 *   after each drawing, as the shell's own lines are (ui.js fitWidth)
 * @property {(code: string) => DealCodeSpec | null} [readDealCode] what a deal code of this game
 *   names, so that the host form shows what a code will deal
 * @property {(table: TableMap, t: Text) => string[]} [rules] the table's rules in plain words, from
 *   its table map, in the page's language (the lobby; the rules panel). Without it: "rules.<preset>"
 * @property {(host: Host) => GameTable} createTable the game's part of the table screen
 */

export {};
