// User-defined functions and aggregates: CREATE and DROP: the rules, the reading and the statements' nodes.
import type * as A from '../ast';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { AlterTableReader, AlterTableRules } from './alter-table';
import type { Base, Pending } from './base';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, Ident, StringLiteral, Comma, LParen, RParen } = Lexer;
const { identifierFromToken, literalFromToken, sized, tokenRange } = Nodes;

// ---------------------------------------------------------------------------------------------
// The statements' nodes

export interface CreateFunctionParts {
  orReplace: boolean;
  ifNotExists: boolean;
  name: A.QualifiedName;
  arguments: A.FunctionArgument[];
  calledOnNullInput: boolean;
  returnType: A.CqlType;
  language: A.Identifier;
  body: A.Literal;
}

export function createFunctionOf(base: Base, p: CreateFunctionParts): A.CreateFunctionStatement {
  return {
    kind: 'CreateFunction',
    range: base.range,
    terminated: base.terminated,
    orReplace: p.orReplace,
    ifNotExists: p.ifNotExists,
    name: p.name,
    arguments: p.arguments,
    calledOnNullInput: p.calledOnNullInput,
    returnType: p.returnType,
    language: p.language,
    body: p.body,
  };
}

export function functionArgumentOf(name: A.Identifier, type: A.CqlType, range: A.SourceRange): A.FunctionArgument {
  return { kind: 'FunctionArgument', name, type, range };
}

export interface CreateAggregateParts {
  orReplace: boolean;
  ifNotExists: boolean;
  name: A.QualifiedName;
  argumentTypes: A.CqlType[];
  stateFunction: A.QualifiedName;
  stateType: A.CqlType;
  finalFunction: A.QualifiedName | undefined;
  initialCondition: A.Expression | undefined;
}

export function createAggregateOf(base: Base, p: CreateAggregateParts): A.CreateAggregateStatement {
  const stmt: A.CreateAggregateStatement = {
    kind: 'CreateAggregate',
    range: base.range,
    terminated: base.terminated,
    orReplace: p.orReplace,
    ifNotExists: p.ifNotExists,
    name: p.name,
    argumentTypes: p.argumentTypes,
    stateFunction: p.stateFunction,
    stateType: p.stateType,
  };
  if (p.finalFunction) stmt.finalFunction = p.finalFunction;
  if (p.initialCondition) stmt.initialCondition = p.initialCondition;
  return stmt;
}

/** `DROP FUNCTION|AGGREGATE [IF EXISTS] name [(types)]`. */
export function dropFunctionOf(
  kind: 'DropFunction' | 'DropAggregate',
  base: Base,
  ifExists: boolean,
  name: A.QualifiedName,
  argumentTypes: A.CqlType[] | undefined,
): A.DropFunctionStatement | A.DropAggregateStatement {
  const stmt: A.DropFunctionStatement | A.DropAggregateStatement = {
    kind,
    range: base.range,
    terminated: base.terminated,
    ifExists,
    name,
  };
  if (argumentTypes) stmt.argumentTypes = argumentTypes;
  return stmt;
}

// ---------------------------------------------------------------------------------------------
// The rules

export class FunctionRules extends AlterTableRules {
  readonly orReplace = this.RULE('orReplace', () => {
    this.CONSUME(K.OR);
    this.CONSUME(K.REPLACE);
    return true;
  });

  readonly createFunction = this.RULE('createFunction', (): Pending => {
    const orReplace = !!this.OPTION(() => this.SUBRULE(this.orReplace));
    this.CONSUME(K.FUNCTION);
    const ifNotExists = !!this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.functionName);
    const args: A.FunctionArgument[] = [];
    this.CONSUME(LParen);
    this.OPTION3(() => {
      args.push(this.SUBRULE(this.functionArgument));
      this.MANY(() => {
        this.CONSUME(Comma);
        args.push(this.SUBRULE2(this.functionArgument));
      });
    });
    this.CONSUME(RParen);
    const calledOnNullInput: boolean = this.OR(
      (this.alts.createFunctionOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.RETURNS);
            this.CONSUME(K.NULL);
            return false;
          },
        },
        { ALT: () => (this.CONSUME(K.CALLED), true) },
      ]),
    );
    this.CONSUME(K.ON);
    this.CONSUME2(K.NULL);
    this.CONSUME(K.INPUT);
    this.CONSUME2(K.RETURNS);
    const returnType = this.SUBRULE(this.cqlType);
    this.CONSUME(K.LANGUAGE);
    const language = this.nameOf(this.CONSUME(Ident));
    this.CONSUME(K.AS);
    const body = this.literal(this.CONSUME(StringLiteral)) as A.Literal;
    return (base) =>
      createFunctionOf(base, {
        orReplace,
        ifNotExists,
        name,
        arguments: args,
        calledOnNullInput,
        returnType,
        language,
        body,
      });
  });

  readonly functionArgument = this.RULE('functionArgument', (): A.FunctionArgument => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.argumentName);
    const type = this.SUBRULE(this.cqlType);
    return this.ACTION(() => functionArgumentOf(name, type, this.rangeFrom(first)));
  });

  readonly argumentName = this.RULE('argumentName', () => this.nameOf(this.CONSUME(Ident)));

  readonly createAggregate = this.RULE('createAggregate', (): Pending => {
    const orReplace = !!this.OPTION(() => this.SUBRULE(this.orReplace));
    this.CONSUME(K.AGGREGATE);
    const ifNotExists = !!this.OPTION2(() => this.SUBRULE(this.ifNotExists));
    const name = this.SUBRULE(this.functionName);
    const argumentTypes = this.SUBRULE(this.typeList);
    this.CONSUME(K.SFUNC);
    const stateFunction = this.SUBRULE2(this.functionName);
    this.CONSUME(K.STYPE);
    const stateType = this.SUBRULE(this.cqlType);
    const finalFunction = this.OPTION3(() => {
      this.CONSUME(K.FINALFUNC);
      return this.SUBRULE3(this.functionName);
    });
    const initialCondition = this.OPTION4(() => {
      this.CONSUME(K.INITCOND);
      return this.SUBRULE(this.expression);
    });
    return (base) =>
      createAggregateOf(base, {
        orReplace,
        ifNotExists,
        name,
        argumentTypes,
        stateFunction,
        stateType,
        finalFunction,
        initialCondition,
      });
  });

  readonly dropFunction = this.RULE('dropFunction', (): Pending => {
    this.CONSUME(K.FUNCTION);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.functionName);
    const argumentTypes = this.OPTION2(() => this.SUBRULE(this.typeList));
    return (base) => dropFunctionOf('DropFunction', base, ifExists, name, argumentTypes);
  });

  readonly dropAggregate = this.RULE('dropAggregate', (): Pending => {
    this.CONSUME(K.AGGREGATE);
    const ifExists = !!this.OPTION(() => this.SUBRULE(this.ifExists));
    const name = this.SUBRULE(this.functionName);
    const argumentTypes = this.OPTION2(() => this.SUBRULE(this.typeList));
    return (base) => dropFunctionOf('DropAggregate', base, ifExists, name, argumentTypes);
  });
}

// ---------------------------------------------------------------------------------------------
// The reading

/** CREATE FUNCTION and AGGREGATE, as the rules above read them (DROP: the schema reader's). */
export class FunctionReader extends AlterTableReader {
  /** `[OR REPLACE] FUNCTION [IF NOT EXISTS] name (args) (CALLED | RETURNS NULL) ON NULL INPUT RETURNS type LANGUAGE l AS body`. */
  protected createFunction(base: Base): A.CreateFunctionStatement {
    const orReplace = this.orReplace();
    this.expect(K.FUNCTION);
    const ifNotExists = this.ifNotExists();
    const name = this.functionName();
    this.expect(LParen);
    const args: A.FunctionArgument[] = [];
    if (!this.is(RParen)) {
      do {
        const start = this.ident();
        const type = this.cqlType();
        args.push(functionArgumentOf(identifierFromToken(start), type, tokenRange(start, this.previous())));
      } while (this.accept(Comma));
    }
    this.expect(RParen);
    const calledOnNullInput = !!this.accept(K.CALLED);
    if (!calledOnNullInput) {
      this.expect(K.RETURNS);
      this.expect(K.NULL);
    }
    this.expect(K.ON);
    this.expect(K.NULL);
    this.expect(K.INPUT);
    this.expect(K.RETURNS);
    const returnType = this.cqlType();
    this.expect(K.LANGUAGE);
    const language = identifierFromToken(this.ident());
    this.expect(K.AS);
    const body = literalFromToken(this.expect(StringLiteral));
    return createFunctionOf(base, {
      orReplace,
      ifNotExists,
      name,
      arguments: sized(args),
      calledOnNullInput,
      returnType,
      language,
      body,
    });
  }

  /** `[OR REPLACE] AGGREGATE [IF NOT EXISTS] name (types) SFUNC f STYPE type [FINALFUNC f] [INITCOND value]`. */
  protected createAggregate(base: Base): A.CreateAggregateStatement {
    const orReplace = this.orReplace();
    this.expect(K.AGGREGATE);
    const ifNotExists = this.ifNotExists();
    const name = this.functionName();
    const argumentTypes = this.typeList();
    this.expect(K.SFUNC);
    const stateFunction = this.functionName();
    this.expect(K.STYPE);
    const stateType = this.cqlType();
    const finalFunction = this.accept(K.FINALFUNC) ? this.functionName() : undefined;
    const initialCondition = this.accept(K.INITCOND) ? this.expression() : undefined;
    return createAggregateOf(base, {
      orReplace,
      ifNotExists,
      name,
      argumentTypes,
      stateFunction,
      stateType,
      finalFunction,
      initialCondition,
    });
  }

  private orReplace(): boolean {
    if (!this.accept(K.OR)) return false;
    this.expect(K.REPLACE);
    return true;
  }
}
