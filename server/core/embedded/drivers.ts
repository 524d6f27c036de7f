// Which calls take CQL, shared by the languages: whose receiver counts (the imports decide), and the JVM drivers'
// calls (Java and Kotlin call the same DataStax Java driver, Spring Data Cassandra and the object mapper).
import type { Anchor, AnchorVerdict, CallShape, FileFacts, Node } from './syntax';

/** A receiver that names a Cassandra session or client (used where the imports do not settle it). */
const SESSION_LIKE = /session|cassandra|cql|scylla/i;

/**
 * Whether a call of a driver method name (`execute`, `prepare`, `Query`) on this receiver is the Cassandra
 * driver's: yes in a file that imports the driver and no other SQL API; in a file that imports both, or neither,
 * only on a receiver named like a session (`session`, `cassandraClient`); never in a file that imports only
 * another SQL API. Otherwise the call is another database's, and the literal it takes is not CQL ('sql').
 */
export function driverReceiver(receiver: string | undefined, facts: FileFacts, alsoLike?: RegExp): 'anchor' | 'sql' {
  if (facts.otherSql && !facts.cassandra) return 'sql';
  if (facts.cassandra && !facts.otherSql) return 'anchor';
  const r = receiver ?? '';
  return SESSION_LIKE.test(r) || (alsoLike?.test(r) ?? false) ? 'anchor' : 'sql';
}

/** The last segment of a dotted name (`com.x.SimpleStatement` -> `SimpleStatement`), generics dropped. */
export function lastSegment(name: string): string {
  const plain = name.replace(/<.*$/s, '');
  return plain.slice(plain.lastIndexOf('.') + 1);
}

export function anchor(label: string, node: Node, params?: Anchor['params']): Anchor {
  return params ? { label, node, params } : { label, node };
}

const JVM_SESSION_CALLS = new Set([
  'execute',
  'executeAsync',
  'executeReactive',
  'prepare',
  'prepareAsync',
  'newSimpleStatement',
]);
const JVM_STATEMENT_FACTORIES = new Set(['newInstance', 'builder']);
/** Spring's CassandraTemplate / CassandraOperations methods that take CQL. */
const SPRING_TEMPLATE_CALLS = new Set(['select', 'selectOne', 'stream', 'slice', 'execute']);

/** JVM module prefixes of the Cassandra drivers and frameworks. */
export const JVM_CASSANDRA =
  /^(?:com\.datastax\.(?:oss\.driver|driver\.core|dse\.driver|driver\.mapping)|org\.springframework\.data\.cassandra|org\.springframework\.boot\.autoconfigure\.cassandra)/;
/** JVM module prefixes of other SQL APIs. */
export const JVM_OTHER_SQL =
  /^(?:java\.sql|javax\.sql|javax\.persistence|jakarta\.persistence|org\.jooq|org\.springframework\.jdbc|org\.springframework\.data\.jpa|org\.springframework\.data\.jdbc|org\.springframework\.data\.r2dbc|org\.springframework\.r2dbc|org\.hibernate|org\.apache\.ibatis|org\.mybatis|org\.jdbi|io\.r2dbc|io\.vertx\.sqlclient|io\.vertx\.pgclient|io\.vertx\.mysqlclient|org\.jetbrains\.exposed|org\.ktorm|com\.zaxxer\.hikari)/;

export function jvmFacts(imports: readonly string[]): FileFacts {
  return {
    cassandra: imports.some((i) => JVM_CASSANDRA.test(i) || i.startsWith('com.datastax.oss.driver.api.mapper')),
    otherSql: imports.some((i) => JVM_OTHER_SQL.test(i)),
    spring: imports.some((i) => i.startsWith('org.springframework.data.cassandra')),
    mapper: imports.some((i) => i.startsWith('com.datastax.oss.driver.api.mapper')),
  };
}

/** The JVM drivers' calls and annotations that take CQL as their first argument (or `value =`). */
export function jvmAnchor(
  kind: 'argument' | 'annotation',
  call: CallShape,
  index: number,
  keyword: string | undefined,
  facts: FileFacts,
): AnchorVerdict {
  if (kind === 'annotation') {
    if (call.name !== 'Query' || !(index === 0 || keyword === 'value')) return undefined;
    if (facts.spring || facts.mapper) return anchor('@Query', call.node, facts.spring ? 'spring' : 'mapper');
    return facts.otherSql ? 'sql' : undefined;
  }
  if (index !== 0) return undefined;
  const receiver = call.receiver ?? '';
  if (call.name === 'SimpleStatement' && call.isNew)
    return facts.otherSql && !facts.cassandra ? 'sql' : anchor('new SimpleStatement', call.node);
  if (JVM_STATEMENT_FACTORIES.has(call.name) && lastSegment(receiver) === 'SimpleStatement') {
    return anchor(`SimpleStatement.${call.name}`, call.node);
  }
  if (facts.spring && SPRING_TEMPLATE_CALLS.has(call.name) && /template|operations/i.test(receiver)) {
    return anchor(`${lastSegment(receiver)}.${call.name}`, call.node);
  }
  if (!JVM_SESSION_CALLS.has(call.name)) return undefined;
  return driverReceiver(receiver, facts) === 'anchor'
    ? anchor(`${lastSegment(receiver) || 'session'}.${call.name}`, call.node)
    : 'sql';
}
