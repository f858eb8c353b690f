import { type DeclaredFields, defineSettings, type EnvReader } from '@app/shared';
import { DEFAULT_DELIVERY_RETRY_DELAYS_MS } from './domain/delivery-schedule';

/** The retries of a failed handshake by default: after 1 s, 5 s and 30 s. */
const DEFAULT_HANDSHAKE_RETRY_DELAYS_MS = [1000, 5000, 30_000];

/** The events module's variables (the settings schema: README, configuration table). */
export const EVENTS_SETTINGS = defineSettings('events', [
  {
    name: 'EVENTS_MAX_SUBSCRIPTIONS',
    field: 'maxSubscriptions',
    type: 'int',
    default: 25,
    atLeast: 1,
    meaning: 'event subscriptions a client without its own quota may hold (409 past it)',
  },
  {
    name: 'EVENTS_ALLOW_PRIVATE_TARGETS',
    field: 'allowPrivateTargets',
    type: 'bool',
    default: false,
    meaning: 'operators and tests only: http: and private, loopback, link-local targets',
  },
  {
    name: 'EVENTS_HANDSHAKE_TIMEOUT_MS',
    field: 'handshakeTimeoutMs',
    type: 'int',
    default: 5000,
    atLeast: 100,
    meaning: "how long one attempt of a subscription's validation handshake may take",
  },
  {
    name: 'EVENTS_HANDSHAKE_RETRY_DELAYS_MS',
    field: 'handshakeRetryDelaysMs',
    type: 'intList',
    default: DEFAULT_HANDSHAKE_RETRY_DELAYS_MS,
    meaning: 'the delays (ms, comma-separated) before each retry of a failed handshake',
  },
  {
    name: 'EVENTS_DELIVERY_TIMEOUT_MS',
    field: 'deliveryTimeoutMs',
    type: 'int',
    default: 10_000,
    atLeast: 100,
    meaning: 'how long one delivery attempt may take',
  },
  {
    name: 'EVENTS_DELIVERY_RETRY_DELAYS_MS',
    field: 'deliveryRetryDelaysMs',
    type: 'intList',
    default: DEFAULT_DELIVERY_RETRY_DELAYS_MS,
    meaning: 'the delays (ms, comma-separated) before each retry of a failed delivery',
  },
  {
    name: 'EVENTS_PAUSE_AFTER_DEAD_LETTERS',
    field: 'pauseAfterDeadLetters',
    type: 'int',
    default: 10,
    meaning: 'dead letters in a row after which a subscription is paused (0: never)',
  },
] as const);

/** The events module's settings (README, configuration table). */
export class EventsSettings implements DeclaredFields<typeof EVENTS_SETTINGS, EventsSettings> {
  /**
   * Subscriptions a client may hold (the notes name no number), unless it has a quota of its
   * own (set-client --max-event-subscriptions).
   */
  declare readonly maxSubscriptions: number;
  /**
   * Operators only (tests, a receiver on the same host): allow `http:` URLs and targets on
   * loopback, private and link-local addresses, which are refused otherwise (SSRF).
   */
  declare readonly allowPrivateTargets: boolean;
  /** How long one attempt of a subscription's validation handshake may take. */
  declare readonly handshakeTimeoutMs: number;
  /**
   * The delays before each retry of a failed handshake: the first attempt, then one retry
   * per delay; after the last the subscription's validation is Failed.
   */
  declare readonly handshakeRetryDelaysMs: number[];
  /** How long one delivery attempt may take. */
  declare readonly deliveryTimeoutMs: number;
  /** The delays before each retry of a failed delivery; after the last, a dead letter. */
  declare readonly deliveryRetryDelaysMs: number[];
  /** Dead letters in a row after which a subscription is paused automatically (0: never). */
  declare readonly pauseAfterDeadLetters: number;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(EVENTS_SETTINGS));
  }
}
