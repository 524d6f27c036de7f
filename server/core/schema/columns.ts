// The vocabulary of the workload model (workload.ts): what a single column holds, from its CQL type
// and its name. Deliberately conservative: a column is only given a nature when the type or a name
// word says so plainly; anything else is 'unknown' and the partition rules stay silent about it.
// docs/partition-model.md lists every word below and how to correct a wrong guess.
import type { ColumnInfo, TableInfo } from './model';
import { isCollection, nativeName } from './types';
import { SECONDS } from '../util/periods';
import { WeakRecentCache } from '../util/recent-cache';

/**
 * snake_case, camelCase and plain: created_at, createdAt, yyyymmdd → words. Accents are dropped
 * (`categoría`, `patiënt`, quoted names) so that every language's words match their plain spelling.
 */
function words(name: string): string[] {
  let out = wordsOf.get(name);
  if (!out) {
    // Names repeat (interned, and every rule asks): split each once. The pool holds names, so it is cleared
    // when it gets large rather than grown without end.
    if (wordsOf.size >= MAX_WORDS_KEPT) wordsOf.clear();
    const plain = /[^\x00-\x7f]/.test(name) ? name.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : name;
    out = plain
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split(/[_\W]+/)
      .filter(Boolean);
    wordsOf.set(name, out);
  }
  return out;
}

const wordsOf = new Map<string, string[]>();
const MAX_WORDS_KEPT = 10_000;

export function columnWords(name: string): string[] {
  return words(name);
}

/**
 * What a column holds:
 * - `instant`: a point in time or a per-event sequence (timestamp, timeuuid, `epoch_ms bigint`, `offset`): a new value per event;
 * - `bucket`: coarse time (`date`, `day`, `log_hour`, `yyyymmdd`): one current value, a new one per period;
 * - `split`: a column a designer added to split partitions (`bucket int`): bounded on purpose;
 * - `shard`: a write-sharding column (`shard`, `salt`, `-- @shard`): N values, forever;
 * - `cyclic`: a recurring time field (`day_of_week`, `hour_of_day`): few values that never move on;
 * - `enum`: few values (boolean, status, country, first letter, language, queue ...);
 * - `grouping`: many values but a few popular ones collect most rows (tag, hashtag, city);
 * - `identifier`: one value per entity (uuid, *_id, email, name ...);
 * - `unknown`: the model cannot tell.
 */
type ColumnNature =
  'instant' | 'bucket' | 'split' | 'shard' | 'cyclic' | 'enum' | 'grouping' | 'identifier' | 'unknown';

export interface ColumnProfile {
  name: string;
  nature: ColumnNature;
  /** Estimated distinct values; Infinity for identifiers, instants and groupings; undefined when unknown. */
  distinct?: number;
  /** A few values take most of the traffic (countries, languages, tags, queues). */
  skewed: boolean;
  /** What decided: "boolean type", "name word 'country' (geography)", "hint". */
  signal: string;
  /** Set by a cardinality hint (.cqlint.json or `-- @cqlint`). */
  hinted: boolean;
  /** Set when the workspace's statements decided (literal values, now(), time-range reads). */
  fromStatements?: boolean;
}

/**
 * What the workspace's statements say about one column (workload.ts collects it from the reference index):
 * the statements speak where the name and type do not.
 */
export interface ColumnEvidence {
  /** The literal values it is written or read with, when every statement that names it gives a literal. */
  literals?: readonly string[];
  /** Written with now(), toTimestamp(now()), currentTimestamp() ...: a new value per write. */
  writtenWithNow?: boolean;
  /** Read by a range (<, <=, >, >=, BETWEEN). */
  rangeRead?: boolean;
}

interface FewValued {
  distinct: number;
  skewed: boolean;
  family: string;
}

// The vocabulary below is data: English first, then German, Spanish, French, Italian, Portuguese and Dutch
// words (without accents: words() drops them), and common abbreviations. docs/partition-model.md lists it.

// Time buckets: a new value per period, with the period's length when the word says it.
const BUCKET_SECONDS_BY_WORD = new Map<string, number | undefined>();
function bucketWords(seconds: number | undefined, list: string[]): void {
  for (const w of list) BUCKET_SECONDS_BY_WORD.set(w, seconds);
}
bucketWords(SECONDS.minute, ['minute', 'minuto', 'minuut', 'minuten']);
bucketWords(SECONDS.hour, ['hour', 'hourly', 'yyyymmddhh', 'stunde', 'hora', 'heure', 'ora', 'uur']);
bucketWords(SECONDS.day, ['day', 'date', 'daily', 'yyyymmdd', 'ymd', 'datum', 'dia', 'fecha', 'jour', 'giorno', 'dag']);
bucketWords(SECONDS.week, ['week', 'weekly', 'woche', 'semana', 'semaine', 'settimana']);
bucketWords(SECONDS.month, ['month', 'monthly', 'yyyymm', 'monat', 'mes', 'mois', 'mese', 'maand']);
bucketWords(3 * SECONDS.month, ['quarter', 'quartal', 'trimestre', 'kwartaal']);
bucketWords(SECONDS.year, ['year', 'yearly', 'yyyy', 'jahr', 'ano', 'annee', 'anno', 'jaar']);
bucketWords(undefined, ['period', 'window', 'interval', 'epoch', 'periodo', 'periode', 'zeitraum']);
const BUCKET_WORDS = new Set(BUCKET_SECONDS_BY_WORD.keys());
// Units that make an epoch or a number an instant (`epoch_ms`, `ts_millis`), not a bucket.
const INSTANT_UNIT_WORDS = new Set([
  'ms',
  'millis',
  'milliseconds',
  'msec',
  'us',
  'micros',
  'microseconds',
  'ns',
  'nanos',
  'nanoseconds',
  'sec',
  'secs',
  'seconds',
]);
const TIME_NAME_WORDS = new Set([
  'at',
  'time',
  'ts',
  'timestamp',
  'datetime',
  'instant',
  'when',
  'created',
  'updated',
  'occurred',
  'sent',
  'received',
  'logged',
  'recorded',
  'posted',
  'viewed',
  'clicked',
  'zeit',
  'zeitpunkt',
  'zeitstempel',
  'erstellt',
  'gesendet',
  'empfangen', // de
  'instante',
  'momento',
  'creado',
  'enviado',
  'recibido',
  'registrado', // es (momento, instante: pt too)
  'horodatage',
  'cree',
  'envoye',
  'recu', // fr
  'tempo',
  'istante',
  'creato',
  'inviato',
  'ricevuto', // it
  'criado',
  'recebido', // pt
  'tijd',
  'tijdstip',
  'tijdstempel',
  'aangemaakt',
  'verzonden',
  'ontvangen', // nl
]);
// Per-event sequences: every event takes the next value.
const SEQUENCE_WORDS = new Set([
  'seq',
  'sequence',
  'offset',
  'seqno',
  'lsn',
  'secuencia',
  'sequenz',
  'sequenza',
  'sequencia',
  'volgnummer',
]);
const SHARD_WORDS = new Set(['shard', 'salt', 'slot', 'vnode']);
// `bucket int` / `partition int`: a split the designer chose (time bucket or shard, we cannot tell which).
const SPLIT_WORDS = new Set(['bucket', 'partition', 'part', 'chunk']);
// Recurring fields: 7 weekdays, 24 hours ... they never move on, so they bound nothing.
// Maps, as every table of name words here: a column named `constructor` must not find Object's.
const CYCLIC = new Map<string, number>(Object.entries({ weekday: 7, dow: 7, hod: 24, wochentag: 7, weekdag: 7 }));
const CYCLIC_OF = new Map<string, number>(
  Object.entries({
    day_week: 7,
    day_month: 31,
    day_year: 366,
    hour_day: 24,
    hour_week: 168,
    minute_hour: 60,
    minute_day: 1440,
    month_year: 12,
    week_year: 53,
    week_month: 5,
    quarter_year: 4,
  }),
);

// Few-valued name words, by family (documented in docs/partition-model.md).
const FEW = new Map<string, FewValued>();
function few(family: string, distinct: number, skewed: boolean, list: string[]): void {
  for (const w of list) FEW.set(w, { distinct, skewed, family });
}
few('geography', 200, true, [
  'country',
  'countries',
  'nationality',
  'nation',
  'citizenship',
  'residency',
  'land',
  'staat',
  'nationalitaet',
  'pais',
  'nacionalidad',
  'pays',
  'nationalite',
  'paese',
  'nazione',
  'nazionalita',
  'nacionalidade',
]);
few('geography', 7, true, ['continent', 'kontinent', 'continente']);
few('geography', 20, true, [
  'region',
  'territory',
  'market',
  'regione',
  'regiao',
  'markt',
  'mercado',
  'marche',
  'mercato',
]);
few('time zone', 400, true, ['timezone', 'tz', 'zeitzone', 'fuseau']);
few('initial', 26, true, [
  'initial',
  'initials',
  'letter',
  'alphabet',
  'alpha',
  'buchstabe',
  'letra',
  'lettre',
  'lettera',
  'inicial',
  'initiale',
  'iniziale',
]);
few('language', 100, true, ['language', 'lang', 'locale', 'sprache', 'idioma', 'lengua', 'langue', 'lingua', 'taal']);
few('currency', 180, true, ['currency', 'waehrung', 'moneda', 'divisa', 'devise', 'valuta', 'moeda']);
few('queue', 10, true, ['queue', 'queues', 'warteschlange', 'cola', 'coda', 'fila', 'wachtrij']);
few('gender', 3, true, ['gender', 'sex', 'geschlecht', 'genero', 'sexo', 'sexe', 'genere', 'sesso', 'geslacht']);
few('genre', 30, true, ['genre']);
few('enum', 10, true, [
  'status',
  'state',
  'type',
  'kind',
  'category',
  'level',
  'priority',
  'tier',
  'flag',
  'enabled',
  'active',
  'mode',
  'stage',
  'phase',
  'role',
  'env',
  'environment',
  'severity',
  'rating',
  'grade',
  'visibility',
  'platform',
  'os',
  'browser',
  'outcome',
  'plan',
  'segment',
  'zustand',
  'typ',
  'kategorie',
  'stufe',
  'prioritaet',
  'aktiv',
  'rolle',
  'phase',
  'modus', // de
  'estado',
  'tipo',
  'categoria',
  'nivel',
  'prioridad',
  'activo',
  'rol',
  'fase',
  'modo',
  'etapa', // es
  'statut',
  'etat',
  'categorie',
  'niveau',
  'priorite',
  'actif',
  'mode',
  'etape', // fr
  'stato',
  'livello',
  'priorita',
  'attivo',
  'ruolo', // it
  'situacao',
  'prioridade',
  'ativo',
  'papel', // pt
  'toestand',
  'soort',
  'prioriteit',
  'actief',
  'rol', // nl
]);
// Many values, a few hot ones collect most rows.
const GROUPING_WORDS = new Set([
  'tag',
  'tags',
  'hashtag',
  'hashtags',
  'keyword',
  'keywords',
  'label',
  'labels',
  'city',
  'topic',
  'subreddit',
  'genre_tag',
  'stadt',
  'ort',
  'schlagwort',
  'ciudad',
  'etiqueta',
  'ville',
  'etiquette',
  'citta',
  'etichetta',
  'cidade',
  'stad',
  'trefwoord',
]);
const ID_WORDS = new Set([
  'id',
  'uuid',
  'guid',
  'key',
  'email',
  'name',
  'username',
  'login',
  'title',
  'url',
  'uri',
  'path',
  'hash',
  'token',
  'isbn',
  'sku',
  'phone',
  'address',
  'ip',
  'handle',
  'slug',
  'code',
  'number',
  'no',
  'serial',
  'account',
  'user',
  'userid',
  'videoid',
  'customer',
  'device',
  'sensor',
  'host',
  'hostname',
  'imei',
  'mac',
  'vin',
  'iban',
  'ssn',
  'nr',
  'num',
  'product',
  'article',
  'nummer',
  'kennung',
  'schluessel',
  'titel',
  'konto',
  'benutzer',
  'kunde',
  'produkt',
  'artikel',
  'geraet', // de
  'numero',
  'codigo',
  'nombre',
  'titulo',
  'cuenta',
  'usuario',
  'cliente',
  'producto',
  'articulo',
  'dispositivo', // es
  'nom',
  'titre',
  'compte',
  'utilisateur',
  'client',
  'produit',
  'appareil',
  'capteur', // fr
  'nome',
  'codice',
  'titolo',
  'conto',
  'utente',
  'prodotto',
  'articolo', // it
  'conta',
  'usuario',
  'produto',
  'artigo', // pt
  'naam',
  'rekening',
  'gebruiker',
  'klant',
  'artikel',
  'apparaat', // nl
]);
// A few-valued word followed by one of these is still that family (`country_code`, `language_name`).
const FAMILY_SUFFIX = new Set([
  'code',
  'iso',
  'iso2',
  'iso3',
  'name',
  'abbr',
  'abbrev',
  'short',
  'codigo',
  'code',
  'codice',
  'nom',
  'nombre',
  'nome',
  'naam',
]);

const MACHINE_SOURCE_WORDS = new Set([
  'sensor',
  'device',
  'server',
  'host',
  'hostname',
  'machine',
  'node',
  'meter',
  'station',
  'metric',
  'metrics',
  'app',
  'application',
  'service',
  'stream',
  'symbol',
  'ticker',
  'instrument',
  'gateway',
  'vehicle',
  'thermostat',
  'camera',
  'probe',
  'agent',
  'pod',
  'container',
  'ip',
  'endpoint',
  'topic',
  'queue',
  'tracker',
  'cpu',
  'disk',
  'interface',
  'nic',
  'router',
  'switch',
  'plc',
  'turbine',
  'pump',
  'robot',
  'drone',
  'beacon',
  'tag_reader',
  'dev',
  'svc',
  'srv', // abbreviations
  'geraet',
  'maschine',
  'fahrzeug',
  'zaehler',
  'messstelle',
  'anlage',
  'dienst', // de
  'dispositivo',
  'maquina',
  'vehiculo',
  'contador',
  'medidor',
  'servidor',
  'estacion',
  'sensores', // es
  'appareil',
  'capteur',
  'vehicule',
  'compteur',
  'serveur',
  'equipement', // fr
  'macchina',
  'veicolo',
  'contatore',
  'sensore',
  'apparecchio', // it
  'equipamento',
  'veiculo',
  'maquina', // pt
  'apparaat',
  'machine',
  'voertuig',
  'meter',
  'toestel', // nl
]);
// Table or time-column words that name a stream of events: rows arrive per event, often many a second.
const EVENT_WORDS = new Set([
  'reading',
  'readings',
  'event',
  'events',
  'log',
  'logs',
  'metric',
  'metrics',
  'measurement',
  'measurements',
  'sample',
  'samples',
  'tick',
  'ticks',
  'trade',
  'trades',
  'activity',
  'activities',
  'message',
  'messages',
  'click',
  'clicks',
  'telemetry',
  'heartbeat',
  'heartbeats',
  'ping',
  'pings',
  'tracking',
  'pageview',
  'pageviews',
  'impression',
  'impressions',
  'transaction',
  'transactions',
  'quote',
  'quotes',
  'price',
  'prices',
  'position',
  'positions',
  'location',
  'locations',
  'timeseries',
  'series',
  'stats',
  'statistics',
  'observation',
  'observations',
  'views',
  'visits',
  'hits',
  'plays',
  'audits',
  'trail',
  'chat',
  'chats',
  'feed',
  'timeline',
  'stream',
  'streams',
  'journal',
  'ledger',
  'history_events',
  'alerts',
  'alarms',
  'notifications',
  'bids',
  'orderbook',
  'scans',
  'swipes',
  'checkins',
  'keystrokes',
  'spans',
  'traces',
  'snapshots',
  'changes',
  'changelog',
  'outbox',
  'rates',
  'evt',
  'evts',
  'msg',
  'msgs', // abbreviations
  'ereignis',
  'ereignisse',
  'messwerte',
  'messungen',
  'protokoll',
  'protokolle',
  'nachrichten',
  'positionen',
  'bewegungen',
  'buchungen',
  'transaktionen',
  'besuche', // de
  'evento',
  'eventos',
  'lecturas',
  'mediciones',
  'medidas',
  'registros',
  'mensajes',
  'posiciones',
  'movimientos',
  'transacciones',
  'visitas',
  'alertas', // es
  'evenement',
  'evenements',
  'mesures',
  'journaux',
  'releves',
  'mouvements',
  'visites',
  'alertes', // fr
  'eventi',
  'letture',
  'misure',
  'misurazioni',
  'registri',
  'messaggi',
  'posizioni',
  'movimenti',
  'transazioni',
  'visite',
  'avvisi', // it
  'leituras',
  'medicoes',
  'mensagens',
  'posicoes',
  'movimentos',
  'transacoes', // pt
  'gebeurtenissen',
  'metingen',
  'berichten',
  'logboek',
  'posities',
  'bewegingen',
  'transacties',
  'bezoeken',
  'meldingen', // nl
]);
// The owner of a partition keyed by one of these is one person: it grows at a human pace (workload.ts).
const PERSON_WORDS = new Set([
  'user',
  'users',
  'userid',
  'username',
  'customer',
  'member',
  'person',
  'people',
  'patient',
  'student',
  'employee',
  'player',
  'subscriber',
  'owner',
  'author',
  'profile',
  'recipient',
  'buyer',
  'passenger',
  'guest',
  'citizen',
  'learner',
  'benutzer',
  'nutzer',
  'kunde',
  'mitglied',
  'mitarbeiter',
  'spieler',
  'schueler',
  'empfaenger', // de
  'usuario',
  'cliente',
  'miembro',
  'empleado',
  'jugador',
  'paciente',
  'alumno',
  'estudiante',
  'destinatario', // es
  'utilisateur',
  'membre',
  'employe',
  'joueur',
  'etudiant',
  'eleve',
  'destinataire', // fr
  'utente',
  'socio',
  'dipendente',
  'giocatore',
  'paziente',
  'studente', // it
  'usuario',
  'funcionario',
  'jogador',
  'aluno', // pt
  'gebruiker',
  'klant',
  'lid',
  'medewerker',
  'speler',
  'leerling',
  'ontvanger', // nl
]);
// Tables that collect what many others write for one person (a feed, a timeline, notifications): they grow
// at the pace of everyone who writes into them, not at the owner's.
const FAN_IN_WORDS = new Set([
  'feed',
  'feeds',
  'timeline',
  'timelines',
  'notifications',
  'wall',
  'newsfeed',
  'benachrichtigungen',
  'notificaciones',
  'notifiche',
  'notificacoes',
  'meldingen',
]);
// Regular columns that hold one item's content: a row keyed by a date alone is overwritten by every new item.
const CONTENT_WORDS = new Set([
  'body',
  'content',
  'text',
  'message',
  'headline',
  'title',
  'summary',
  'comment',
  'description',
  'html',
  'markdown',
  'subject',
  'lede',
  'inhalt',
  'nachricht',
  'titel',
  'ueberschrift',
  'beschreibung',
  'kommentar', // de
  'cuerpo',
  'contenido',
  'texto',
  'titulo',
  'titular',
  'mensaje',
  'resumen',
  'descripcion',
  'comentario', // es
  'corps',
  'contenu',
  'texte',
  'titre',
  'chapeau',
  'resume',
  'commentaire', // fr
  'corpo',
  'contenuto',
  'testo',
  'titolo',
  'messaggio',
  'sommario',
  'descrizione',
  'commento', // it
  'conteudo',
  'mensagem',
  'resumo',
  'descricao',
  'comentario', // pt
  'inhoud',
  'tekst',
  'bericht',
  'kop',
  'samenvatting',
  'beschrijving',
  'opmerking', // nl
]);
// Measured values that many items share (a score, a price): not an identity, and not a time. Not a rank
// (unique by construction in a ranking) nor a bare `value` (the value of a key-value pair).
const MEASURE_WORDS = new Set([
  'score',
  'scores',
  'points',
  'price',
  'amount',
  'total',
  'count',
  'qty',
  'quantity',
  'balance',
  'votes',
  'likes',
  'percent',
  'pct',
  'revenue',
  'sum',
  'avg',
  'average',
  'mean',
  'min',
  'max',
  'punkte',
  'preis',
  'betrag',
  'menge',
  'anzahl',
  'summe',
  'umsatz', // de
  'puntos',
  'puntuacion',
  'precio',
  'importe',
  'cantidad',
  'suma',
  'ingresos', // es
  'prix',
  'montant',
  'quantite',
  'somme',
  'recette', // fr
  'punti',
  'punteggio',
  'prezzo',
  'importo',
  'quantita',
  'somma',
  'ricavi', // it
  'pontos',
  'preco',
  'quantidade',
  'soma',
  'receita', // pt
  'punten',
  'prijs',
  'bedrag',
  'aantal',
  'som',
  'omzet', // nl
]);

/** A `-- @shard` column, or one named shard/salt/slot. */
function isShardColumn(col: ColumnInfo, table?: TableInfo): boolean {
  if (table?.shard && table.shard.shardColumn === col.name) return true;
  return words(col.name).some((x) => SHARD_WORDS.has(x));
}

function cyclicValues(w: string[]): number | undefined {
  for (const x of w) if (CYCLIC.has(x)) return CYCLIC.get(x);
  const of = w.indexOf('of');
  if (of > 0 && of < w.length - 1) return CYCLIC_OF.get(`${w[of - 1]}_${w[of + 1]}`);
  return undefined;
}

function fewValued(w: string[]): FewValued | undefined {
  // `first_letter`, `last_name_initial`, `country_code`: the family word may come last or before a suffix.
  const last = w[w.length - 1]!;
  if (FEW.has(last)) return FEW.get(last);
  if (w.length >= 2 && FAMILY_SUFFIX.has(last) && FEW.has(w[w.length - 2]!)) return FEW.get(w[w.length - 2]!);
  if (w[0] === 'is' || w[0] === 'has') return { distinct: 2, skewed: true, family: 'flag' };
  return undefined;
}

function profile(name: string, nature: ColumnNature, signal: string, distinct?: number, skewed = false): ColumnProfile {
  return { name, nature, signal, skewed, hinted: false, ...(distinct !== undefined ? { distinct } : {}) };
}

// Names a timestamp may carry and still hold an instant: `created_date timestamp`, `fecha timestamp` (a date and time).
const DATE_WORDS = new Set(['date', 'fecha', 'datum', 'hora']);
const INTEGER_TYPES = new Set(['bigint', 'varint', 'int']);
const NOW_TYPES = new Set(['uuid', 'timeuuid', 'timestamp', 'bigint', 'varint']);

/**
 * What one column holds: from its type and name, then what the workspace's statements say where those
 * could not tell (`evidence`), and a cardinality hint (`distinctHint`) over both.
 */
export function profileColumn(
  col: ColumnInfo,
  table?: TableInfo,
  distinctHint?: number,
  evidence?: ColumnEvidence,
): ColumnProfile {
  const type = nativeName(col.type);
  let p = withEvidence(cachedVocabularyProfile(col, table, type), type, col.name, evidence);
  if (distinctHint !== undefined) {
    p = {
      ...p,
      distinct: distinctHint,
      nature:
        p.nature === 'instant' || p.nature === 'bucket' || p.nature === 'shard' || p.nature === 'split'
          ? p.nature
          : distinctHint <= FEW_VALUES
            ? 'enum'
            : 'identifier',
      skewed: p.skewed && distinctHint <= FEW_VALUES,
      signal: `hint: ${distinctHint} distinct values`,
      hinted: true,
    };
  }
  return p;
}

/**
 * The statements speak where the name and type do not: a value written with now() is a new value per
 * write; a number read by ranges is a time series' time (unless it names a measure such as a score); a
 * column only ever given a handful of literal values has that handful.
 */
function withEvidence(
  p: ColumnProfile,
  type: string | undefined,
  name: string,
  evidence: ColumnEvidence | undefined,
): ColumnProfile {
  if (!evidence) return p;
  if (evidence.writtenWithNow && p.nature !== 'instant' && p.nature !== 'shard' && type && NOW_TYPES.has(type)) {
    return fromStatements(profile(name, 'instant', "written with now() by the workspace's statements", Infinity));
  }
  if (p.nature !== 'unknown') return p;
  if (
    evidence.rangeRead &&
    type &&
    (INTEGER_TYPES.has(type) || type === 'timestamp') &&
    !words(name).some((x) => MEASURE_WORDS.has(x))
  ) {
    return fromStatements(
      profile(name, 'instant', "read by time ranges in the workspace's statements (a time series)", Infinity),
    );
  }
  const literals = evidence.literals;
  if (literals && literals.length > 0 && literals.length <= FEW_LITERALS) {
    const shown =
      literals
        .slice(0, 4)
        .map((v) => `'${v}'`)
        .join(', ') + (literals.length > 4 ? ', ...' : '');
    return fromStatements(
      profile(
        name,
        'enum',
        `only ${literals.length} literal value${literals.length === 1 ? '' : 's'} (${shown}) in the workspace's statements`,
        literals.length,
        literals.length > 1,
      ),
    );
  }
  return p;
}

/**
 * Columns whose profiles are kept, per generation (see WeakRecentCache): above the columns of any one large
 * file's tables (the 10,000-line bench file's), so that an edited file's columns keep theirs across edits.
 */
const PROFILES_KEPT = 16_384;

/**
 * A column's profile from its type and name, kept for the columns asked about lately (every rule and the hover
 * ask for it). Not one per column of the model: the CLI lints every file of a 2,000-file workspace once, and a
 * WeakMap kept about 10 MiB of profiles, for the workspace's life, that no later file asked for again.
 */
const vocabularyProfiles = new WeakRecentCache<ColumnInfo, { shard: TableInfo['shard']; profile: ColumnProfile }>(
  PROFILES_KEPT,
);

/** Lets go of the kept profiles (see Project.forgetLookups): each is made from its column alone. */
export function forgetVocabularyProfiles(): void {
  vocabularyProfiles.clear();
}

function cachedVocabularyProfile(
  col: ColumnInfo,
  table: TableInfo | undefined,
  type: string | undefined,
): ColumnProfile {
  // The `-- @shard` comment of the table makes a column a shard whatever its name: part of the key.
  const shard = table?.shard;
  const cached = vocabularyProfiles.get(col);
  if (cached && cached.shard === shard) return cached.profile;
  const profile = vocabularyProfile(col, table, type, words(col.name));
  vocabularyProfiles.set(col, { shard, profile });
  return profile;
}

function fromStatements(q: ColumnProfile): ColumnProfile {
  return { ...q, fromStatements: true };
}

/** A column given at most this many literal values, and never a bind marker, counts as holding that many. */
const FEW_LITERALS = 10;

/** What one column holds, from its type and name words alone. */
function vocabularyProfile(
  col: ColumnInfo,
  table: TableInfo | undefined,
  type: string | undefined,
  w: string[],
): ColumnProfile {
  if (isShardColumn(col, table)) {
    const n = table?.shard?.shardColumn === col.name ? table.shard.count : undefined;
    return profile(
      col.name,
      'shard',
      table?.shard?.shardColumn === col.name ? '-- @shard comment' : 'name word (shard)',
      n,
    );
  }
  if (type === 'boolean') return profile(col.name, 'enum', 'boolean type', 2, true);
  if (type === 'timeuuid') return profile(col.name, 'instant', 'timeuuid type', Infinity);
  // A uuid named like a time (`posted_time uuid`) is a time-based uuid stored in a uuid column.
  if (type === 'uuid' && w.some((x) => TIME_NAME_WORDS.has(x)))
    return profile(col.name, 'instant', 'uuid named like a time', Infinity);
  if (type === 'uuid') return profile(col.name, 'identifier', 'uuid type', Infinity);
  if (type === 'date') return profile(col.name, 'bucket', 'date type', Infinity);
  if (w.length === 0) return profile(col.name, 'unknown', 'no name words');
  const cyclic = cyclicValues(w);
  if (cyclic !== undefined) return profile(col.name, 'cyclic', `recurring time field (${cyclic} values)`, cyclic, true);
  const unit = w.some((x) => INSTANT_UNIT_WORDS.has(x));
  const bucketWord =
    w.find((x) => BUCKET_WORDS.has(x)) ??
    (/^(yyyy|yyyymm|yyyymmdd|yyyymmddhh)$/i.test(col.name) ? col.name : undefined);
  if (type === 'timestamp') {
    // A timestamp named like a coarse bucket (`day`, `log_hour`) holds one value per period.
    if (bucketWord && !DATE_WORDS.has(bucketWord) && !unit)
      return profile(col.name, 'bucket', `timestamp named '${bucketWord}'`, Infinity);
    return profile(col.name, 'instant', 'timestamp type', Infinity);
  }
  const numeric =
    type === 'bigint' ||
    type === 'varint' ||
    type === 'int' ||
    type === 'counter' ||
    type === 'decimal' ||
    type === 'double';
  if (numeric && (type === 'bigint' || type === 'varint')) {
    if (unit && (bucketWord === 'epoch' || w.some((x) => TIME_NAME_WORDS.has(x)) || w.length === 1))
      return profile(
        col.name,
        'instant',
        `${type} in ${w.find((x) => INSTANT_UNIT_WORDS.has(x))} (epoch time)`,
        Infinity,
      );
    if (!bucketWord && w.some((x) => TIME_NAME_WORDS.has(x)))
      return profile(col.name, 'instant', `${type} named like a time`, Infinity);
  }
  if ((type === 'bigint' || type === 'varint' || type === 'int') && w.some((x) => SEQUENCE_WORDS.has(x))) {
    return profile(col.name, 'instant', `${type} sequence ('${w.find((x) => SEQUENCE_WORDS.has(x))}')`, Infinity);
  }
  if (bucketWord && type !== 'blob' && !unit)
    return profile(col.name, 'bucket', `name word '${bucketWord}' (time bucket)`, Infinity);
  if (
    w.some((x) => SPLIT_WORDS.has(x)) &&
    !w.some((x) => ID_WORDS.has(x)) &&
    (type === 'int' ||
      type === 'smallint' ||
      type === 'tinyint' ||
      type === 'bigint' ||
      type === 'text' ||
      type === 'varchar')
  ) {
    return profile(col.name, 'split', `name word '${w.find((x) => SPLIT_WORDS.has(x))}' (a deliberate split)`);
  }
  if (type === 'blob' || isCollection(col.type)) return profile(col.name, 'unknown', `${col.typeText} type`);
  const family = fewValued(w);
  if (family)
    return profile(
      col.name,
      'enum',
      `name word '${w.find((x) => FEW.has(x)) ?? w[0]}' (${family.family}, ~${family.distinct} values)`,
      family.distinct,
      family.skewed,
    );
  const group = w.find((x) => GROUPING_WORDS.has(x));
  if (group && !w.some((x) => x === 'id' || x === 'uuid'))
    return profile(col.name, 'grouping', `name word '${group}' (many values, a few popular)`, Infinity, true);
  if (type === 'tinyint') return profile(col.name, 'enum', 'tinyint type', 256);
  if (w.some((x) => ID_WORDS.has(x)) || /id$/i.test(col.name))
    return profile(
      col.name,
      'identifier',
      `name word '${w.find((x) => ID_WORDS.has(x)) ?? 'id'}' (identifier)`,
      Infinity,
    );
  return profile(col.name, 'unknown', 'no vocabulary word');
}

/** At or below this many distinct values, a column counts as few-valued (docs/partition-model.md). */
export const FEW_VALUES = 1000;

// Things that end: a partition keyed by one of them stops growing when it does (a match, a trace).
const BOUNDED_CONTAINER_WORDS = new Set([
  'match',
  'trace',
  'session',
  'request',
  'build',
  'upload',
  'trip',
  'ride',
  'flight',
  'auction',
  'round',
  'race',
  'exam',
  'quiz',
  'survey',
  'checkout',
  'shipment',
]);

/** The partition key column that identifies something that ends (match_id, trace_id), if any. */
export function boundedContainerColumn(table: TableInfo): ColumnInfo | undefined {
  return table.partitionKey.find((c) => {
    const w = words(c.name);
    return (
      w.some((x) => BOUNDED_CONTAINER_WORDS.has(x)) &&
      (w.some((x) => ID_WORDS.has(x)) || nativeName(c.type) === 'uuid' || nativeName(c.type) === 'timeuuid')
    );
  });
}

/**
 * The partition key column that names one person (`user_id`, `cliente_id`, `benutzer_id`), when the key
 * names no machine and the table is no feed others write into (a timeline, notifications): such a
 * partition grows at a human pace whatever else the table is called.
 */
export function personOwnerColumn(table: TableInfo): ColumnInfo | undefined {
  if (namesMachineSource(table) || words(table.name).some((w) => FAN_IN_WORDS.has(w))) return undefined;
  return table.partitionKey.find((c) => {
    const w = words(c.name);
    const type = nativeName(c.type);
    return (
      w.some((x) => PERSON_WORDS.has(x)) &&
      (w.some((x) => ID_WORDS.has(x) && !PERSON_WORDS.has(x)) ||
        /id$/i.test(c.name) ||
        type === 'uuid' ||
        w.length === 1 ||
        w.includes('username'))
    );
  });
}

// A partition keyed by one of these holds one tenant's rows: tenants differ in size by orders of magnitude.
const TENANT_WORDS = new Set([
  'tenant',
  'org',
  'organization',
  'organisation',
  'workspace',
  'company',
  'account',
  'mandant',
]);

/**
 * The partition key column that names a tenant (`tenant_id`, `org_id`, `workspace`), when the rest of the
 * key is time buckets: the table holds every tenant's rows, each tenant in its own partitions, and its
 * partitions are as large as the largest tenant's.
 */
export function tenantKeyColumn(table: TableInfo): ColumnInfo | undefined {
  const tenants = table.partitionKey.filter((c) => words(c.name).some((x) => TENANT_WORDS.has(x)));
  if (tenants.length !== 1) return undefined;
  const others = table.partitionKey.filter((c) => c !== tenants[0]);
  return others.every((c) => bucketPeriodSeconds(c) !== undefined) ? tenants[0] : undefined;
}

/** A regular column that holds one item's content or identity (a body, a headline, an isbn, a uuid). */
export function isItemColumn(col: ColumnInfo, table?: TableInfo): boolean {
  if (col.role !== 'regular') return false;
  return words(col.name).some((x) => CONTENT_WORDS.has(x)) || profileColumn(col, table).nature === 'identifier';
}

/** A column that names a measured value many items share (a score, a price, a total). */
export function isMeasureColumn(col: ColumnInfo): boolean {
  return words(col.name).some((x) => MEASURE_WORDS.has(x));
}

/** Whether the partition key names a machine-like source (sensor, device, host ...). */
export function namesMachineSource(table: TableInfo): boolean {
  return table.partitionKey.some((c) => words(c.name).some((w) => MACHINE_SOURCE_WORDS.has(w)));
}

/** Whether the table's name or its time column names a stream of events (readings, logs, views, audit ...). */
export function namesEventStream(table: TableInfo, timeColumn?: ColumnInfo): boolean {
  if (words(table.name).some((w) => EVENT_WORDS.has(w))) return true;
  return !!timeColumn && words(timeColumn.name).some((w) => EVENT_WORDS.has(w));
}

// The types an instant can have: the vocabulary, now() and range reads make no other column one.
const INSTANT_TYPES = new Set(['timeuuid', 'timestamp', 'uuid', 'bigint', 'varint', 'int']);

/** Whether a column's type can hold an instant (a cheap test before the workload model is asked). */
export function canHoldInstant(col: ColumnInfo): boolean {
  return INSTANT_TYPES.has(nativeName(col.type) ?? '');
}

/** Timestamps, timeuuids, epoch numbers (`epoch_ms bigint`) and per-event sequences. */
export function isTimeOrdered(col: ColumnInfo): boolean {
  return profileColumn(col).nature === 'instant';
}

/** A column that coarsens time: a `date`, or a day/hour/month/bucket name. */
export function isTimeBucket(col: ColumnInfo): boolean {
  return profileColumn(col).nature === 'bucket';
}

/**
 * How long one value of a time bucket column takes writes (its period), from the name word that makes
 * it a bucket, in any language of the vocabulary (`log_hour`, `stunde`: an hour; `yyyymmdd`, `dia`: a
 * day; a `date` without one: a day); undefined when the column is no bucket or its name does not say
 * the period (`period`, `window`, `bucket`).
 */
export function bucketPeriodSeconds(col: ColumnInfo): number | undefined {
  if (!isTimeBucket(col)) return undefined;
  // The finest period named wins (`day_hour` is an hour).
  let finest: number | undefined;
  for (const x of [...words(col.name), col.name.toLowerCase()]) {
    const seconds = BUCKET_SECONDS_BY_WORD.get(x);
    if (seconds !== undefined && (finest === undefined || seconds < finest)) finest = seconds;
  }
  if (finest !== undefined) return finest;
  return nativeName(col.type) === 'date' ? SECONDS.day : undefined;
}

/**
 * A number that holds an instant: an epoch time (`created_at bigint`, a column written with
 * toUnixTimestamp(now()) or read by time ranges), not a per-event sequence (`message_seq`), which orders
 * rows as a time does but holds none.
 */
export function isEpochTime(col: ColumnInfo, table?: TableInfo): boolean {
  const type = nativeName(col.type);
  if (type !== 'bigint' && type !== 'varint' && type !== 'int') return false;
  const p = profileColumn(col, table);
  return p.nature === 'instant' && !words(col.name).some((x) => SEQUENCE_WORDS.has(x));
}

/** Identifiers and other values with many distinct values: uuids, *_id, email, name, title ... */
export function isHighCardinality(col: ColumnInfo): boolean {
  const p = profileColumn(col);
  return p.nature === 'identifier' || (p.nature === 'instant' && nativeName(col.type) !== 'timestamp');
}
