// The shell's strings, one table per language (issue 5: "every string in one place per
// language"): English and Indonesian. A game's own words live in its page module's
// strings (server/meja/games/<name>/page/strings.js); the shell looks them up through
// gameText() and says a missing one readably (from its key) rather than not at all.
//
// A value is a string with {placeholders}, or a function of the parameters where the
// grammar needs it (plurals). t(key, params) looks a key up in the current language and
// falls back to English, then to the key itself (so a missing string shows, not crashes).

export const LANGUAGES = { en: "English", id: "Bahasa Indonesia" };

export const STRINGS = {
  en: {
    "app.title": "Meja",
    "app.title.game": "Meja: {game}",
    "app.tagline": "Cards in your browser. No download, no sign-up.",

    "lang.label": "Language",

    "nav.home": "Home",
    "nav.leave": "Leave table",
    "nav.skip": "Skip to the game",

    "home.continue.title": "Continue your game",
    "home.continue.text": "This browser holds a seat at table {code}.",
    "home.continue.button": "Continue at {code}",
    "home.continue.forget": "Forget this seat",
    "home.host.title": "Host a table",
    "home.name": "Your name",
    "home.name.default": "Player",
    "home.preset": "Rules",
    "home.seats": "Table",
    "home.seats.2": "1 vs 1",
    "home.seats.3": "1 vs 2",
    "home.seats.n": "{n} seats",
    "home.bots": "Bot level for empty seats",
    "home.options": "Options",
    "home.game": "Game",
    "home.loading": "Connecting to the server for its games…",
    "home.none": "none",
    "home.deal_code": "Deal code (optional: play a shared deal)",
    "home.deal_code.hint": "Leave empty for a random deal. A code alone is enough: it names its game, rules and seats.",
    "home.host.button": "Host the table",
    "home.join.title": "Join a table",
    "home.code": "Room code",
    "home.code.hint": "Six characters, any case.",
    "home.join.button": "Join",
    "home.watch.button": "Spectate",
    "home.rules.title": "The rules in brief",

    "bot.easy": "Easy",
    "bot.normal": "Normal",
    "bot.hard": "Hard",

    "lobby.title": "Waiting for players",
    "lobby.code": "Room code",
    "lobby.code.spoken": "Room code {spelled}",
    "lobby.copy_code": "Copy code",
    "lobby.copy_link": "Copy link",
    "lobby.share": "Share",
    "lobby.share.text": "Join my {game} table: room code {code}",
    "lobby.game": "Game",
    "lobby.rules": "Rules",
    "lobby.about": "The game",
    "lobby.deal_given": "A shared deal (from its deal code)",
    "lobby.copied": "Copied.",
    "lobby.copy_failed": "Copying is not possible here: select the text and copy it.",
    "lobby.link": "Invite link",
    "lobby.qr": "QR code of the invite link",
    "lobby.seats": "Seats",
    "lobby.start": "Start",
    "lobby.start.wait": "Only the host can start the game.",
    "lobby.seat.to_bot": "Seat a bot",
    "lobby.seat.to_empty": "Open the seat",
    "lobby.host": "host",
    "lobby.you": "you",

    "seat.label": "Seat {n}",
    "seat.empty": "Empty seat",
    "seat.bot_name": "Bot {n}",
    "seat.level": "{level} bot",
    "seat.away": "away",
    "seat.auto": "a bot plays for them",
    "seat.offline": "offline",

    "table.title": "Table {code}",
    "table.your_hand": "Your hand",
    "table.hand_empty": "No cards in hand.",
    "table.spectating": "You are watching this table.",
    "table.round": "Round {n}",
    "table.log": "Moves",
    "table.you": "You",
    "table.your_move": "Your move",
    "table.waiting": "Waiting for another seat to move",
    "table.view": "The table as the server shows it to you",
    "table.moves": "Your moves",
    "table.no_moves": "Nothing to do right now.",
    "table.nothing": "—",

    "log.rematch": "A new match begins at this table.",
    "log.away": "{who} lost the connection.",
    "log.back": "{who} is back.",
    "log.auto": "A bot plays for {who} until they return.",
    "log.generic": "{who}: {what}",
    "log.generic.table": "{what}",

    "summary.title": "Round {n} is over",
    "summary.deal": "Deal code",
    "summary.deal.hint": "Share it: the same deal can be played again to compare results.",
    "summary.copy_deal": "Copy deal link",
    "summary.commit.ok": "Checked: this deal was fixed before the round began (its commitment {hash}… matches).",
    "summary.commit.bad": "Warning: the revealed deal does not match the commitment shown at the start of the round.",
    "summary.commit.none": "No commitment was received for this round.",
    "summary.commit.wait": "Checking the deal's commitment…",
    "summary.next": "Next round",
    "summary.waiting": "Waiting for the other players…",
    "summary.match_over": "The match is over",
    "summary.winners": (p) => (p.n > 1 ? `Co-winners: ${p.names}` : `Winner: ${p.names}`),
    "summary.rematch": "Rematch",
    "summary.rematch.wait": "The host can start a rematch.",

    "outcome.scores": "Final scores",
    "outcome.player": "Player",
    "outcome.team": "Team",
    "outcome.team.n": "Team {n}",
    "outcome.seats": "Seats",
    "outcome.score": "Score",

    "bool.true": "yes",
    "bool.false": "no",

    "conn.connecting": "Connecting…",
    "conn.lost": (p) => `Connection lost. Reconnecting in ${p.s} s…`,
    "conn.retry_now": "Reconnect now",
    "conn.replaced": "This seat was opened in another tab or window, so this one stopped.",
    "conn.take_back": "Play here instead",
    "conn.gone": "This table no longer exists.",
    "conn.restored": "Connected.",
    "conn.not_sent": "Not connected: that was not sent. Reconnecting…",

    "error.table/not_found": "No table has that code. Check the code and try again.",
    "error.table/full": "That table is full. You can spectate instead.",
    "error.table/code_rate_limited": "Too many attempts. Wait a minute and try again.",
    "error.table/not_lobby": "The game has already started.",
    "error.table/bad_options": "The server did not accept these settings: {message}",
    "error.deal/bad_code": "That deal code does not read. Check it for typos.",
    "error.auth/bad_token": "This seat is no longer yours (the table ended or moved on).",
    "error.action/stale_version": "The table moved on; here is the latest.",
    "error.protocol/rate_limited": "Slow down a little.",
    "error.generic": "Something went wrong: {message}",
    "error.code_format": "A room code has 6 letters or digits.",
    "error.name": "Please enter a name (up to 24 characters).",
  },

  id: {
    "app.title": "Meja",
    "app.title.game": "Meja: {game}",
    "app.tagline": "Main kartu di peramban. Tanpa unduhan, tanpa daftar.",

    "lang.label": "Bahasa",

    "nav.home": "Beranda",
    "nav.leave": "Tinggalkan meja",
    "nav.skip": "Langsung ke permainan",

    "home.continue.title": "Lanjutkan permainanmu",
    "home.continue.text": "Peramban ini memegang kursi di meja {code}.",
    "home.continue.button": "Lanjutkan di {code}",
    "home.continue.forget": "Lupakan kursi ini",
    "home.host.title": "Buka meja",
    "home.name": "Namamu",
    "home.name.default": "Pemain",
    "home.preset": "Aturan",
    "home.seats": "Meja",
    "home.seats.2": "1 lawan 1",
    "home.seats.3": "1 lawan 2",
    "home.seats.n": "{n} kursi",
    "home.bots": "Tingkat bot untuk kursi kosong",
    "home.options": "Pilihan",
    "home.game": "Permainan",
    "home.loading": "Menghubungkan ke server untuk daftar permainannya…",
    "home.none": "tidak ada",
    "home.deal_code": "Kode deal (opsional: mainkan deal yang dibagikan)",
    "home.deal_code.hint": "Kosongkan untuk deal acak. Kode saja sudah cukup: kode itu menyebut permainan, aturan, dan jumlah kursinya.",
    "home.host.button": "Buka meja",
    "home.join.title": "Gabung ke meja",
    "home.code": "Kode ruang",
    "home.code.hint": "Enam karakter, huruf besar atau kecil.",
    "home.join.button": "Gabung",
    "home.watch.button": "Tonton",
    "home.rules.title": "Aturan singkat",

    "bot.easy": "Mudah",
    "bot.normal": "Biasa",
    "bot.hard": "Sulit",

    "lobby.title": "Menunggu pemain",
    "lobby.code": "Kode ruang",
    "lobby.code.spoken": "Kode ruang {spelled}",
    "lobby.copy_code": "Salin kode",
    "lobby.copy_link": "Salin tautan",
    "lobby.share": "Bagikan",
    "lobby.share.text": "Gabung ke meja {game}-ku: kode ruang {code}",
    "lobby.game": "Permainan",
    "lobby.rules": "Aturan",
    "lobby.about": "Permainannya",
    "lobby.deal_given": "Deal yang dibagikan (dari kode deal-nya)",
    "lobby.copied": "Tersalin.",
    "lobby.copy_failed": "Tidak bisa menyalin di sini: pilih teksnya lalu salin.",
    "lobby.link": "Tautan undangan",
    "lobby.qr": "Kode QR tautan undangan",
    "lobby.seats": "Kursi",
    "lobby.start": "Mulai",
    "lobby.start.wait": "Hanya tuan rumah yang bisa memulai.",
    "lobby.seat.to_bot": "Dudukkan bot",
    "lobby.seat.to_empty": "Kosongkan kursi",
    "lobby.host": "tuan rumah",
    "lobby.you": "kamu",

    "seat.label": "Kursi {n}",
    "seat.empty": "Kursi kosong",
    "seat.bot_name": "Bot {n}",
    "seat.level": "bot {level}",
    "seat.away": "terputus",
    "seat.auto": "bot bermain untuknya",
    "seat.offline": "luring",

    "table.title": "Meja {code}",
    "table.your_hand": "Kartumu",
    "table.hand_empty": "Tidak ada kartu di tangan.",
    "table.spectating": "Kamu sedang menonton meja ini.",
    "table.round": "Ronde {n}",
    "table.log": "Langkah",
    "table.you": "Kamu",
    "table.your_move": "Giliranmu",
    "table.waiting": "Menunggu kursi lain bergerak",
    "table.view": "Meja seperti yang ditunjukkan server kepadamu",
    "table.moves": "Langkahmu",
    "table.no_moves": "Belum ada yang perlu dilakukan.",
    "table.nothing": "—",

    "log.rematch": "Pertandingan baru dimulai di meja ini.",
    "log.away": "{who} terputus.",
    "log.back": "{who} kembali.",
    "log.auto": "Bot bermain untuk {who} sampai ia kembali.",
    "log.generic": "{who}: {what}",
    "log.generic.table": "{what}",

    "summary.title": "Ronde {n} selesai",
    "summary.deal": "Kode deal",
    "summary.deal.hint": "Bagikan: deal yang sama bisa dimainkan lagi untuk membandingkan hasilnya.",
    "summary.copy_deal": "Salin tautan deal",
    "summary.commit.ok": "Terperiksa: deal ini sudah ditetapkan sebelum ronde dimulai (komitmen {hash}… cocok).",
    "summary.commit.bad": "Peringatan: deal yang dibuka tidak cocok dengan komitmen di awal ronde.",
    "summary.commit.none": "Tidak ada komitmen yang diterima untuk ronde ini.",
    "summary.commit.wait": "Memeriksa komitmen deal…",
    "summary.next": "Ronde berikutnya",
    "summary.waiting": "Menunggu pemain lain…",
    "summary.match_over": "Pertandingan selesai",
    "summary.winners": (p) => (p.n > 1 ? `Pemenang bersama: ${p.names}` : `Pemenang: ${p.names}`),
    "summary.rematch": "Main lagi",
    "summary.rematch.wait": "Tuan rumah bisa memulai pertandingan ulang.",

    "outcome.scores": "Skor akhir",
    "outcome.player": "Pemain",
    "outcome.team": "Tim",
    "outcome.team.n": "Tim {n}",
    "outcome.seats": "Kursi",
    "outcome.score": "Skor",

    "bool.true": "ya",
    "bool.false": "tidak",

    "conn.connecting": "Menghubungkan…",
    "conn.lost": "Koneksi terputus. Menyambung lagi dalam {s} dtk…",
    "conn.retry_now": "Sambung sekarang",
    "conn.replaced": "Kursi ini dibuka di tab atau jendela lain, jadi yang ini berhenti.",
    "conn.take_back": "Main di sini saja",
    "conn.gone": "Meja ini sudah tidak ada.",
    "conn.restored": "Tersambung.",
    "conn.not_sent": "Tidak tersambung: langkah itu tidak terkirim. Menyambung lagi…",

    "error.table/not_found": "Tidak ada meja dengan kode itu. Periksa kodenya dan coba lagi.",
    "error.table/full": "Meja itu penuh. Kamu bisa menonton.",
    "error.table/code_rate_limited": "Terlalu banyak percobaan. Tunggu semenit lalu coba lagi.",
    "error.table/not_lobby": "Permainan sudah dimulai.",
    "error.table/bad_options": "Server tidak menerima pengaturan ini: {message}",
    "error.deal/bad_code": "Kode deal itu tidak terbaca. Periksa salah ketik.",
    "error.auth/bad_token": "Kursi ini bukan milikmu lagi (meja selesai atau berlanjut).",
    "error.action/stale_version": "Meja sudah berubah; ini keadaan terbaru.",
    "error.protocol/rate_limited": "Pelan-pelan sedikit.",
    "error.generic": "Ada yang salah: {message}",
    "error.code_format": "Kode ruang terdiri dari 6 huruf atau angka.",
    "error.name": "Isi nama (paling banyak 24 karakter).",
  },
};

let current = "en";
/** Each game's strings by game name: {en: {...}, id: {...}} (registered by the module loader). */
const GAME_STRINGS = new Map();

/** The language to start in: the saved choice, else the browser's first known language. */
export function initialLanguage(saved, browserLanguages) {
  if (saved && STRINGS[saved]) return saved;
  for (const tag of browserLanguages || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "in") return "id"; // the old code for Indonesian, still sent by some systems
    if (STRINGS[base]) return base;
  }
  return "en";
}

export function setLanguage(lang) {
  current = STRINGS[lang] ? lang : "en";
  document.documentElement.lang = current;
}

export function language() {
  return current;
}

function fill(value, params) {
  if (typeof value === "function") return value(params);
  if (Array.isArray(value)) return value;
  return value.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

function lookup(tables, key) {
  if (!tables) return undefined;
  const here = tables[current];
  if (here && here[key] !== undefined) return here[key];
  return tables.en ? tables.en[key] : undefined;
}

/** The string `key` in the current language with {placeholders} filled from `params`. */
export function t(key, params = {}) {
  const value = lookup(STRINGS, key);
  return value === undefined ? key : fill(value, params);
}

/** Register a game's strings ({en: {...}, id: {...}}), as its page module exports them. */
export function addGameStrings(game, tables) {
  if (tables && typeof tables === "object") GAME_STRINGS.set(game, tables);
}

/** Whether the game's strings (or the shell's) have `key`. */
export function hasText(game, key) {
  return lookup(GAME_STRINGS.get(game), key) !== undefined || lookup(STRINGS, key) !== undefined;
}

/** A game's string: its own words first, then the shell's; a missing key is said readably. */
export function gameText(game, key, params = {}) {
  const value = lookup(GAME_STRINGS.get(game), key);
  if (value !== undefined) return fill(value, params);
  const shell = lookup(STRINGS, key);
  return shell === undefined ? readable(key) : fill(shell, params);
}

/** `t` for one game (what its module gets as host.t): the game's words, then the shell's. */
export function textFor(game) {
  return (key, params = {}) => {
    const value = lookup(GAME_STRINGS.get(game), key);
    if (value !== undefined) return fill(value, params);
    return t(key, params);
  };
}

/** "option.window_ms" -> "Window ms": the last part of a key, as words, for a string nobody wrote. */
export function readable(key) {
  const last = String(key).split(".").pop() || String(key);
  const words = last.replace(/[_-]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").trim().toLowerCase();
  return words ? words[0].toUpperCase() + words.slice(1) : String(key);
}
