// The direct reading of the role, user and permission statements (grammar/direct.ts): CREATE and ALTER ROLE and USER,
// GRANT, REVOKE, LIST, and DESCRIBE of a keyspace, table, index, view or schema, read as the grammar reads them
// (grammar/syntax/admin.ts) into the OtherStatement the CST builder makes of them (their words and the names they
// mention, grammar/builder-ddl.ts). `OPTIONS = {...}` (a map that may hold names), FUNCTION and MBean resources, and
// DESCRIBE forms led by an unreserved word (CLUSTER, TYPES, a bare table name, ...): the parser reads them.
import * as Chevrotain from './chevrotain';
import type { IToken } from './chevrotain';
import type * as A from './ast';
import * as Lexer from './lexer';
import * as Nodes from './nodes';
import * as Statements from './nodes-statements';
import type { Base as StatementBase } from './nodes-statements';
import * as Expressions from './direct-expressions';
import * as Schema from './direct-schema';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, PermissionKw, StringLiteral, BooleanLiteral, Comma, LBrace, RBrace, Eq } = Lexer;
const { tokenMatcher } = Chevrotain;
const { identifierFromToken } = Nodes;
const { otherOf } = Statements;
const { GIVE_UP } = Expressions;
const { SchemaReader } = Schema;

/** The schema statements (SchemaReader), CREATE and ALTER ROLE and USER, GRANT, REVOKE, LIST, DESCRIBE. */
export class AdminReader extends SchemaReader {
  /** The statement's second token is ROLE or USER: `CREATE` / `ALTER` one. */
  protected isRoleOrUser(): boolean {
    const second = this.la(2).tokenType;
    return second === K.ROLE || second === K.USER;
  }

  /** `CREATE|ALTER ROLE [IF [NOT] EXISTS] name [WITH option (AND option)*]`, `CREATE|ALTER USER [IF [NOT] EXISTS] name [WITH password] [[NO]SUPERUSER]`. */
  protected roleOrUser(base: StatementBase): A.OtherStatement {
    const verb = this.peek();
    this.pos++;
    const what = this.peek();
    this.pos++;
    if (verb.tokenType === K.CREATE) this.ifNotExists();
    else if (this.accept(K.IF)) this.expect(K.EXISTS);
    const name = this.roleName();
    if (what.tokenType === K.ROLE) {
      if (this.accept(K.WITH)) {
        do this.roleOption();
        while (this.accept(K.AND));
      }
    } else {
      if (this.accept(K.WITH)) this.userPassword();
      if (!this.accept(K.SUPERUSER)) this.accept(K.NOSUPERUSER);
    }
    return otherOf(base, `${verb.image.toUpperCase()} ${what.image.toUpperCase()}`, [name]);
  }

  /** `GRANT|REVOKE permissions ON resource TO|FROM role`, or `GRANT|REVOKE role TO|FROM role`. */
  protected grantOrRevoke(base: StatementBase): A.OtherStatement {
    const verb = this.peek();
    this.pos++;
    const toward = verb.tokenType === K.GRANT ? K.TO : K.FROM;
    const names: (A.Identifier | A.QualifiedName)[] = [];
    // A role then TO / FROM: the role alternative (no permission list reads so).
    if (this.la(2).tokenType === toward) names.push(this.roleName());
    else {
      this.permissions();
      this.expect(K.ON);
      this.resource(names);
    }
    this.expect(toward);
    names.push(this.roleName());
    return otherOf(base, verb.image.toUpperCase(), names);
  }

  /** `LIST ROLES|USERS|SUPERUSERS [OF role] [NORECURSIVE]` or `LIST permissions [ON resource] [OF role] [NORECURSIVE]`. */
  protected list(base: StatementBase): A.OtherStatement {
    this.expect(K.LIST);
    const t = this.peek();
    const names: (A.Identifier | A.QualifiedName)[] = [];
    let words = 'LIST PERMISSIONS';
    if (t.tokenType === K.ROLES || t.tokenType === K.USERS || t.tokenType === K.SUPERUSERS) {
      this.pos++;
      words = `LIST ${t.image.toUpperCase()}`;
    } else {
      this.permissions();
      if (this.accept(K.ON)) this.resource(names);
    }
    if (this.accept(K.OF)) names.push(this.roleName());
    this.accept(K.NORECURSIVE);
    return otherOf(base, words, names);
  }

  /** `DESCRIBE|DESC` then `KEYSPACE [ks]`, `TABLE t`, `INDEX i`, `MATERIALIZED VIEW v` or `[FULL] SCHEMA`, `[WITH INTERNALS]`. */
  protected describe(base: StatementBase): A.OtherStatement {
    this.pos++;
    const type = this.peek().tokenType;
    this.pos++;
    const names: (A.Identifier | A.QualifiedName)[] = [];
    let words: string;
    if (type === K.KEYSPACE) {
      words = 'DESCRIBE KEYSPACE';
      if (tokenMatcher(this.peek(), Ident)) names.push(identifierFromToken(this.ident()));
    } else if (type === K.TABLE || type === K.INDEX) {
      words = type === K.TABLE ? 'DESCRIBE TABLE' : 'DESCRIBE INDEX';
      names.push(this.tableName());
    } else if (type === K.MATERIALIZED) {
      words = 'DESCRIBE MATERIALIZED VIEW';
      this.expect(K.VIEW);
      names.push(this.tableName());
    } else if (type === K.FULL) {
      words = 'DESCRIBE FULL SCHEMA';
      this.expect(K.SCHEMA);
    } else if (type === K.SCHEMA) words = 'DESCRIBE SCHEMA';
    else throw GIVE_UP;
    if (this.accept(K.WITH)) this.expect(K.INTERNALS);
    return otherOf(base, words, names);
  }

  /** `ALL [PERMISSIONS]` or `permission [PERMISSION] (, ...)*`. */
  private permissions(): void {
    if (this.accept(K.ALL)) {
      this.accept(K.PERMISSIONS);
      return;
    }
    do {
      if (!tokenMatcher(this.peek(), PermissionKw)) throw GIVE_UP;
      this.pos++;
      this.accept(K.PERMISSION);
    } while (this.accept(Comma));
  }

  /**
   * `ALL KEYSPACES|ROLES|MBEANS`, `ALL TABLES IN KEYSPACE ks`, `ALL FUNCTIONS [IN KEYSPACE ks]`, `KEYSPACE ks`,
   * `ROLE role` or `[TABLE] table`, its names added to `names`. Where ALL or ROLE could be a table's name
   * (unreserved words), it gives up unless the word's own alternative follows.
   */
  private resource(names: (A.Identifier | A.QualifiedName)[]): void {
    const type = this.peek().tokenType;
    if (type === K.ALL) {
      this.pos++;
      const what = this.peek().tokenType;
      this.pos++;
      if (what === K.KEYSPACES || what === K.ROLES || what === K.MBEANS) return;
      if (what === K.TABLES) {
        this.expect(K.IN);
        this.expect(K.KEYSPACE);
        names.push(identifierFromToken(this.ident()));
        return;
      }
      if (what !== K.FUNCTIONS) throw GIVE_UP;
      if (this.accept(K.IN)) {
        this.expect(K.KEYSPACE);
        names.push(identifierFromToken(this.ident()));
      }
      return;
    }
    if (type === K.KEYSPACE || type === K.ROLE) {
      this.pos++;
      names.push(type === K.KEYSPACE ? identifierFromToken(this.ident()) : this.roleName());
      return;
    }
    if (type === K.FUNCTION || type === K.MBEAN || type === K.MBEANS) throw GIVE_UP;
    this.accept(K.TABLE);
    names.push(this.tableName());
  }

  /** `roleName` / `userName`: a name or a string. */
  private roleName(): A.Identifier {
    const t = this.peek();
    if (!tokenMatcher(t, Ident) && t.tokenType !== StringLiteral) throw GIVE_UP;
    this.pos++;
    return identifierFromToken(t);
  }

  private roleOption(): void {
    const type = this.peek().tokenType;
    this.pos++;
    if (type === K.PASSWORD) this.passwordValue();
    else if (type === K.HASHED) {
      this.expect(K.PASSWORD);
      this.passwordValue();
    } else if (type === K.GENERATED) this.expect(K.PASSWORD);
    else if (type === K.SUPERUSER || type === K.LOGIN) {
      this.expect(Eq);
      this.expect(BooleanLiteral);
    } else if (type === K.ACCESS) {
      const to = !!this.accept(K.TO);
      if (!to) this.expect(K.FROM);
      const all = !!this.accept(K.ALL);
      this.expect(to ? K.DATACENTERS : K.CIDRS);
      if (!all) this.stringSet();
    } else throw GIVE_UP;
  }

  private passwordValue(): void {
    this.expect(Eq);
    this.expect(StringLiteral);
  }

  /** `PASSWORD 'p'`, `HASHED PASSWORD 'h'` or `GENERATED PASSWORD` (a user's: no `=`). */
  private userPassword(): void {
    const t: IToken = this.peek();
    this.pos++;
    if (t.tokenType === K.HASHED) this.expect(K.PASSWORD);
    else if (t.tokenType === K.GENERATED) {
      this.expect(K.PASSWORD);
      return;
    } else if (t.tokenType !== K.PASSWORD) throw GIVE_UP;
    this.expect(StringLiteral);
  }

  /** `{'a', 'b', ...}`. */
  private stringSet(): void {
    this.expect(LBrace);
    do this.expect(StringLiteral);
    while (this.accept(Comma));
    this.expect(RBrace);
  }
}
