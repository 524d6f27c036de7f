// CQL types: native, collections, tuples, vectors, frozen and user types.
import * as Lexer from '../lexer';
import { NameRules } from './names';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, NativeTypeKw, StringLiteral, IntegerLiteral, Comma, LParen, RParen, Lt, Gt } = Lexer;

export class TypeRules extends NameRules {
  readonly typeList = this.RULE('typeList', () => {
    this.CONSUME(LParen);
    this.OPTION(() => {
      this.SUBRULE(this.cqlType);
      this.MANY(() => {
        this.CONSUME(Comma);
        this.SUBRULE2(this.cqlType);
      });
    });
    this.CONSUME(RParen);
  });

  readonly cqlType = this.RULE('cqlType', () => {
    this.OR((this.alts.cqlTypeOr ??= [
      { ALT: () => this.CONSUME(NativeTypeKw) },
      { ALT: () => this.SUBRULE(this.collectionType) },
      { ALT: () => this.SUBRULE(this.tupleType) },
      { ALT: () => this.SUBRULE(this.vectorType) },
      { ALT: () => this.SUBRULE(this.frozenType) },
      { ALT: () => this.SUBRULE(this.userTypeName) },
      { ALT: () => this.CONSUME(StringLiteral) },
    ]));
  });

  /** `type, type, ...` on its own (a command line's list of key types); not part of any statement. */
  readonly cqlTypes = this.RULE('cqlTypes', () => {
    this.SUBRULE(this.cqlType);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.cqlType);
    });
  });

  readonly collectionType = this.RULE('collectionType', () => {
    this.OR((this.alts.collectionTypeOr ??= [
      {
        ALT: () => {
          this.CONSUME(K.MAP);
          this.CONSUME(Lt);
          this.SUBRULE(this.cqlType);
          this.CONSUME(Comma);
          this.SUBRULE2(this.cqlType);
          this.CONSUME(Gt);
        },
      },
      {
        ALT: () => {
          this.OR2((this.alts.collectionTypeOr2 ??= [{ ALT: () => this.CONSUME(K.LIST) }, { ALT: () => this.CONSUME(K.SET) }]));
          this.CONSUME2(Lt);
          this.SUBRULE3(this.cqlType);
          this.CONSUME2(Gt);
        },
      },
    ]));
  });

  readonly tupleType = this.RULE('tupleType', () => {
    this.CONSUME(K.TUPLE);
    this.CONSUME(Lt);
    this.SUBRULE(this.cqlType);
    this.MANY(() => {
      this.CONSUME(Comma);
      this.SUBRULE2(this.cqlType);
    });
    this.CONSUME(Gt);
  });

  readonly vectorType = this.RULE('vectorType', () => {
    this.CONSUME(K.VECTOR);
    this.CONSUME(Lt);
    this.SUBRULE(this.cqlType);
    this.CONSUME(Comma);
    this.CONSUME(IntegerLiteral);
    this.CONSUME(Gt);
  });

  readonly frozenType = this.RULE('frozenType', () => {
    this.CONSUME(K.FROZEN);
    this.CONSUME(Lt);
    this.SUBRULE(this.cqlType);
    this.CONSUME(Gt);
  });
}
