// One small application shared by the integration tests (Project, CLI, language server): a schema, a Java DAO with
// a misspelt column inside its string, and Python that writes and reads the day-keyed table.
export const SCHEMA = `CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
CREATE TABLE shop.orders_by_day (day date, order_id uuid, total decimal, PRIMARY KEY (day, order_id));
CREATE TABLE shop.users (user_id uuid PRIMARY KEY, name text, email text);
`;

export const JAVA = `package shop;

import com.datastax.oss.driver.api.core.CqlSession;

public class UserDao {
  private final CqlSession session = CqlSession.builder().withKeyspace("shop").build();

  public void rename(java.util.UUID id, String name) {
    session.execute("UPDATE users SET nmae = ? WHERE user_id = ?", name, id);
  }
}
`;

/** Writes and reads the orders of a day, both by order_id (the reads know it: a calculated shard fits). */
export const PYTHON = `from cassandra.cluster import Cluster

session = Cluster(['127.0.0.1']).connect('shop')

def add(day, order_id, total):
    session.execute("INSERT INTO orders_by_day (day, order_id, total) VALUES (%s, %s, %s)", (day, order_id, total))

def order(day, order_id):
    return session.execute("SELECT total FROM orders_by_day WHERE day = %s AND order_id = %s", (day, order_id))
`;
