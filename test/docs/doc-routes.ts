/**
 * The routes the documents name, and whether the OpenAPI document has each.
 *
 * A route is recognised in a document's text (prose, inline code, code blocks, tables) as:
 *  - `METHOD path`: GET, POST, PUT, PATCH or DELETE (several joined by `/`:
 *    `GET/POST Profile/{A}`), a space, then a path that starts with `/`, with `.../` or with
 *    a capital letter (`Profile/{S}/Updates`); a lower-case word after the method is prose
 *    ("GET requests");
 *  - a row of a routes table: its first cell only methods (`GET`, `POST, GET`), its second
 *    cell paths in backticks (those starting with `/`, `.../` or a capital letter; one
 *    written after a method there is an inline mention); a path that does not start with `/`
 *    is one under the row's first path (`Email?emailAddress=` after
 *    `/{clientId}/Profile/Phone`), as `.../Email`.
 * Curl commands and other URLs with concrete values are not route names (the README's
 * runnable blocks are run by test/docs/readme-runnable.e2e-spec.ts instead).
 *
 * A path is normalised before it is looked up: the query (`?...`), a trailing `/...`
 * ("and its sub-resources") and trailing punctuation are dropped; `{A|B}` is each of A and B
 * (literal segments); any other `{name}`, `<name>` or `:name` is a path parameter, which
 * matches only a parameter, while a literal segment also matches a parameter (a value of
 * it: `Config/CustomProperties/Filter`), except in a tail; a bare prefix (`/Profiles/v4`) names no route; a
 * path under
 * `/Profiles/v2` is the same route under `/Profiles/v4` (the legacy prefix serves every
 * route); `/{clientId}/...` and a path without `{clientId}` that starts with a capital
 * (`/Profile/{id}`, `Tags`) are under `/Profiles/v4/{clientId}`; `/Async/{clientId}/...`
 * and other paths naming `{clientId}` are under `/Profiles/v4`; `.../tail` (and a table's
 * relative path) is any route ending with that tail.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface RouteMention {
  file: string;
  line: number;
  /** As written. */
  text: string;
  methods: HttpMethod[];
  /** Every one of `methods` must be served (inline), or at least one (a table row). */
  methodsNeeded: 'each' | 'any';
  /** Normalised: segments, parameters as `{}`, possibly several (from `{A|B}`). */
  paths: string[];
  /** True for `.../tail`: any route ending with the path's segments. */
  tail: boolean;
  /** True for `path/...` (a route and its sub-resources): any route starting with it. */
  prefix: boolean;
}

/** Roots served outside the version prefix, as the documents name them. */
const OUTSIDE_PREFIX = [
  '/Profiles/',
  '/oauth2/',
  '/health',
  '/metrics',
  '/.well-known/',
  '/admin/',
  // The double opt-in link's page (libs/consents, confirmation-paths.ts).
  '/Confirm/',
];

const METHOD = `(?:${HTTP_METHODS.join('|')})`;
/** `METHOD path`, the path starting with `/`, `.../` or a capital letter. */
/** A path's characters: a brace group (`{A|B}` may hold bars), or anything up to a separator. */
const PATH_CHAR = `(?:\\{[^}\\s\`]*\\}|[^\\s\`|),;{])`;
const INLINE = new RegExp(
  `(?<![A-Za-z/])(${METHOD}(?:/${METHOD})*) \`?((?:\\.\\.\\.|…)?/${PATH_CHAR}+|[A-Z]${PATH_CHAR}*)`,
  'g',
);
/** Stands for a table's escaped `\|` while the row is split into cells. */
const PIPE = '\u0000';
const TABLE_METHODS = new RegExp(`^${METHOD}(?:, ?${METHOD})*$`);

/** Splits `{A|B|C}` into alternatives; the rest of the path is kept around each. */
function alternatives(path: string): string[] {
  const match = /\{([^{}]*\|[^{}]*)\}/.exec(path);
  if (!match) return [path];
  return match[1]
    .split('|')
    .flatMap((choice) =>
      alternatives(path.slice(0, match.index) + choice + path.slice(match.index + match[0].length)),
    );
}

/** A route's segments, each parameter as `{}`. */
export type Segments = string[];

function trimmed(raw: string): string {
  return raw
    .replace(/[?#].*$/, '')
    .replace(/[,;:*'"]+$/, '')
    .replace(/(?<!\.\.)\.$/, '');
}

/** The normalised paths of a written path, and whether it is a tail (`.../x`). */
export function normalisePath(written: string): {
  paths: string[];
  tail: boolean;
  prefix: boolean;
} {
  let path = trimmed(written.replaceAll(PIPE, '|'));
  const prefix = /\/(\.\.\.|…)$/.test(path);
  path = path.replace(/\/(\.\.\.|…)$/, '').replace(/\/+$/, '');
  const tail = /^(\.\.\.|…)\//.test(path);
  if (tail) path = path.replace(/^(\.\.\.|…)/, '');
  else if (!path.startsWith('/')) path = `/${path}`;
  if (!tail && !OUTSIDE_PREFIX.some((root) => path.startsWith(root))) {
    path = path.includes('{clientId}') ? `/Profiles/v4${path}` : `/Profiles/v4/{clientId}${path}`;
  }
  path = path.replace(/^\/Profiles\/v2\//, '/Profiles/v4/');
  if (/^\/Profiles\/v[24]$/.test(path)) return { paths: [], tail, prefix };
  const paths = alternatives(path).map((one) =>
    one
      .replace(/\{[^{}|]*\}|<[^<>]*>/g, '{}')
      .replace(/\/:[A-Za-z]\w*/g, '/{}')
      .replace(/\/+$/, ''),
  );
  return { paths, tail, prefix };
}

function methodsOf(text: string): HttpMethod[] {
  return text.split(/[/,] ?/).map((method) => method.trim() as HttpMethod);
}

/** Every route a document names (see the rules above). */
export function routeMentions(file: string, text: string): RouteMention[] {
  const mentions: RouteMention[] = [];
  text.split('\n').forEach((lineText, index) => {
    const line = index + 1;
    // Table cells escape `|` as `\|`; a brace group's alternatives are kept whole.
    const unescaped = lineText.replaceAll('\\|', PIPE);
    const cells = unescaped.startsWith('|')
      ? unescaped
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim())
      : [];
    if (cells.length >= 2 && TABLE_METHODS.test(cells[0])) {
      const methods = methodsOf(cells[0]);
      const written = [...cells[1].matchAll(new RegExp(`(${METHOD} )?\`([^\`]+)\``, 'g'))]
        .filter(([, method, path]) => !method && /^(\/|\.\.\.\/|…\/|[A-Z])/.test(path))
        .map((match) => match[2]);
      for (const path of written) {
        const relative = !path.startsWith('/') && !/^(\.\.\.|…)\//.test(path);
        const normalised = normalisePath(relative ? `.../${path}` : path);
        mentions.push({ file, line, text: path, methods, methodsNeeded: 'any', ...normalised });
      }
    }
    for (const match of unescaped.matchAll(INLINE)) {
      const [text, methods, path] = match;
      mentions.push({
        file,
        line,
        text,
        methods: methodsOf(methods),
        methodsNeeded: 'each',
        ...normalisePath(path),
      });
    }
  });
  return mentions;
}

export interface ServedRoute {
  path: string;
  segments: Segments;
  methods: Set<HttpMethod>;
}

/** The OpenAPI document's operations: each path, its segments and its methods. */
export function servedRoutes(paths: Record<string, object>): ServedRoute[] {
  return Object.entries(paths).map(([path, operations]) => ({
    path,
    segments: path
      .replace(/\{[^}]*\}/g, '{}')
      .split('/')
      .slice(1),
    methods: new Set(
      Object.keys(operations)
        .map((method) => method.toUpperCase())
        .filter((method): method is HttpMethod =>
          (HTTP_METHODS as readonly string[]).includes(method),
        ),
    ),
  }));
}

/**
 * A named segment matches the same segment; a named literal also matches a parameter (a
 * value of it), except in a tail, where one literal would match every route ending in a
 * parameter.
 */
function segmentsMatch(named: Segments, served: Segments, literalAsValue: boolean): boolean {
  return (
    named.length === served.length &&
    named.every(
      (segment, i) =>
        segment === served[i] || (literalAsValue && served[i] === '{}' && segment !== ''),
    )
  );
}

/** What is wrong with one mention: '' when the OpenAPI document serves it. */
export function mentionProblem(mention: RouteMention, served: ServedRoute[]): string {
  const problems: string[] = [];
  for (const path of mention.paths) {
    const named = path.split('/').slice(1);
    const candidates = served.filter((route) => {
      let segments = route.segments;
      if (mention.prefix) segments = segments.slice(0, named.length);
      if (mention.tail) segments = segments.slice(-named.length);
      return segmentsMatch(named, segments, !mention.tail);
    });
    if (candidates.length === 0) {
      const how = mention.tail ? 'ends with' : mention.prefix ? 'starts with' : 'is';
      problems.push(`no route ${how} ${path}`);
      continue;
    }
    const has = (method: HttpMethod) => candidates.some((route) => route.methods.has(method));
    const ok =
      mention.methodsNeeded === 'each' ? mention.methods.every(has) : mention.methods.some(has);
    if (!ok) {
      const servedMethods = candidates.map(
        (route) => `${route.path}: ${[...route.methods].join(',')}`,
      );
      problems.push(
        `${mention.methods.join('/')} is not served at ${path} (${servedMethods.join('; ')})`,
      );
    }
  }
  return problems.join('; ');
}
