// CQL types: native, collections, tuples, vectors, frozen and user types.
import type * as A from '../ast';
import * as Chevrotain from '../chevrotain';
import * as Lexer from '../lexer';
import * as Nodes from '../nodes';
import { NameReader, NameRules } from './names';

// Module constants: compiled to CommonJS (tsx: tests, bench), every use of an imported binding is a getter call.
const { keywordTokens: K, NativeTypeKw, StringLiteral, IntegerLiteral, Comma, LParen, RParen, Lt, Gt } = Lexer;
const { tokenMatcher } = Chevrotain;
const {
  collectionTypeOf,
  customTypeOf,
  frozenTypeOf,
  nativeTypeOf,
  sized,
  tokenRange,
  tupleTypeOf,
  userTypeOf,
  vectorTypeOf,
} = Nodes;

export class TypeRules extends NameRules {
  readonly typeList = this.RULE('typeList', () => {
    const types: A.CqlType[] = [];
    this.CONSUME(LParen);
    this.OPTION(() => {
      types.push(this.SUBRULE(this.cqlType));
      this.MANY(() => {
        this.CONSUME(Comma);
        types.push(this.SUBRULE2(this.cqlType));
      });
    });
    this.CONSUME(RParen);
    return types;
  });

  /** A type; its range is its tokens' (each alternative's node spans them all). */
  readonly cqlType = this.RULE('cqlType', (): A.CqlType => {
    this.ACTION(() => this.enterNesting());
    const type = this.OR(this.typeAlternatives());
    this.ACTION(() => this.leaveNesting());
    return type;
  });

  private typeAlternatives(): { MAX_LOOKAHEAD: number; DEF: { ALT: () => A.CqlType }[] } {
    return (this.alts.cqlTypeOr ??= {
      MAX_LOOKAHEAD: 2,
      DEF: [
        {
          ALT: () => {
            const t = this.CONSUME(NativeTypeKw);
            return this.ACTION(() => nativeTypeOf(t, tokenRange(t)));
          },
        },
        { ALT: () => this.SUBRULE(this.collectionType) },
        { ALT: () => this.SUBRULE(this.tupleType) },
        { ALT: () => this.SUBRULE(this.vectorType) },
        { ALT: () => this.SUBRULE(this.frozenType) },
        {
          ALT: () => {
            const first = this.LA(1);
            const name = this.SUBRULE(this.userTypeName);
            return this.ACTION(() => userTypeOf(name, this.rangeFrom(first)));
          },
        },
        {
          ALT: () => {
            const t = this.CONSUME(StringLiteral);
            return this.ACTION(() => customTypeOf(t));
          },
        },
      ],
    });
  }

  /** `type, type, ...` on its own (a command line's list of key types); not part of any statement. */
  readonly cqlTypes = this.RULE('cqlTypes', () => {
    const types = [this.SUBRULE(this.cqlType)];
    this.MANY(() => {
      this.CONSUME(Comma);
      types.push(this.SUBRULE2(this.cqlType));
    });
    return types;
  });

  readonly collectionType = this.RULE('collectionType', (): A.CqlType => {
    const first = this.LA(1);
    const elementTypes: A.CqlType[] = this.OR(
      (this.alts.collectionTypeOr ??= [
        {
          ALT: () => {
            this.CONSUME(K.MAP);
            this.CONSUME(Lt);
            const key = this.SUBRULE(this.cqlType);
            this.CONSUME(Comma);
            const value = this.SUBRULE2(this.cqlType);
            this.CONSUME(Gt);
            return [key, value];
          },
        },
        {
          ALT: () => {
            this.OR2(
              (this.alts.collectionTypeOr2 ??= [
                { ALT: () => this.CONSUME(K.LIST) },
                { ALT: () => this.CONSUME(K.SET) },
              ]),
            );
            this.CONSUME2(Lt);
            const element = this.SUBRULE3(this.cqlType);
            this.CONSUME2(Gt);
            return [element];
          },
        },
      ]),
    );
    return this.ACTION(() => {
      const type = first.tokenType;
      return collectionTypeOf(
        type === K.MAP ? 'map' : type === K.LIST ? 'list' : 'set',
        elementTypes,
        this.rangeFrom(first),
      );
    });
  });

  readonly tupleType = this.RULE('tupleType', (): A.CqlType => {
    const first = this.CONSUME(K.TUPLE);
    this.CONSUME(Lt);
    const elementTypes = [this.SUBRULE(this.cqlType)];
    this.MANY(() => {
      this.CONSUME(Comma);
      elementTypes.push(this.SUBRULE2(this.cqlType));
    });
    this.CONSUME(Gt);
    return this.ACTION(() => tupleTypeOf(elementTypes, this.rangeFrom(first)));
  });

  readonly vectorType = this.RULE('vectorType', (): A.CqlType => {
    const first = this.CONSUME(K.VECTOR);
    this.CONSUME(Lt);
    const elementType = this.SUBRULE(this.cqlType);
    this.CONSUME(Comma);
    const dimension = this.CONSUME(IntegerLiteral);
    this.CONSUME(Gt);
    return this.ACTION(() => vectorTypeOf(elementType, dimension, this.rangeFrom(first)));
  });

  readonly frozenType = this.RULE('frozenType', (): A.CqlType => {
    const first = this.CONSUME(K.FROZEN);
    this.CONSUME(Lt);
    const inner = this.SUBRULE(this.cqlType);
    this.CONSUME(Gt);
    return this.ACTION(() => frozenTypeOf(inner, this.rangeFrom(first)));
  });
}

/** Types, as the rules above read them. */
export class TypeReader extends NameReader {
  protected cqlType(): A.CqlType {
    this.enterNesting();
    const type = this.typeBody();
    this.depth--;
    return type;
  }

  private typeBody(): A.CqlType {
    const t = this.peek();
    const type = t.tokenType;
    if (tokenMatcher(t, NativeTypeKw)) {
      this.pos++;
      return nativeTypeOf(t, tokenRange(t));
    }
    if (this.la(2).tokenType === Lt) {
      if (type === K.MAP || type === K.LIST || type === K.SET) {
        this.pos += 2;
        const elementTypes = [this.cqlType()];
        if (type === K.MAP) {
          this.expect(Comma);
          elementTypes.push(this.cqlType());
        }
        return collectionTypeOf(
          type === K.MAP ? 'map' : type === K.LIST ? 'list' : 'set',
          elementTypes,
          tokenRange(t, this.expect(Gt)),
        );
      }
      if (type === K.FROZEN) {
        this.pos += 2;
        const inner = this.cqlType();
        return frozenTypeOf(inner, tokenRange(t, this.expect(Gt)));
      }
      if (type === K.TUPLE) {
        this.pos += 2;
        const elementTypes = [this.cqlType()];
        while (this.accept(Comma)) elementTypes.push(this.cqlType());
        return tupleTypeOf(
          elementTypes.length > 1 ? sized(elementTypes) : elementTypes,
          tokenRange(t, this.expect(Gt)),
        );
      }
      if (type === K.VECTOR) {
        this.pos += 2;
        const elementType = this.cqlType();
        this.expect(Comma);
        const dimension = this.expect(IntegerLiteral);
        return vectorTypeOf(elementType, dimension, tokenRange(t, this.expect(Gt)));
      }
    }
    if (type === StringLiteral) {
      this.pos++;
      return customTypeOf(t);
    }
    return userTypeOf(this.userTypeName(), tokenRange(t, this.previous()));
  }

  /** `typeList`: `([type (, type)*])`. */
  protected typeList(): A.CqlType[] {
    this.expect(LParen);
    const types: A.CqlType[] = [];
    if (!this.is(RParen)) {
      do types.push(this.cqlType());
      while (this.accept(Comma));
    }
    this.expect(RParen);
    return sized(types);
  }
}
