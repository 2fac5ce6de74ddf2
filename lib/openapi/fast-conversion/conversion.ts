import type { JsonSchema } from '../openapi-document.js';
import type { SchemaSide } from '../../internal/schema.js';
import { applyMeta, compactTypeUnion, dropInherited, encodePointer, foldIntersection, inherit, isOnlyAllOf, jsonValue, serializeDefault } from './json-shaping.js';
import { arrayJson, objectJson, recordJson, tupleJson, type Visitor } from './container-nodes.js';
import * as scalar from './scalar-nodes.js';
import { IdConflict, Unsupported } from './unsupported.js';
import { chainHasId, registry, type Node } from './zod-internals.js';

const LOCAL_DEFS = '#/$defs/';
const NONE = Symbol('none');
const ACTIVE = Symbol('active');

export class Conversion implements Visitor {
  /**
   * Each node's JSON as containers and wrappers hold it (its `$ref` if it has an id), or
   * `ACTIVE` while it is being converted (met again then, it is recursive).
   */
  readonly memo = new Map<Node, JsonSchema | typeof ACTIVE>();
  /** The nodes being converted, outermost first. */
  readonly stack: Node[] = [];
  /** The bodies of the nodes with an id (their JSON in `$defs`). */
  readonly extracted = new Map<Node, JsonSchema>();
  /** The `allOf` of nodes whose own JSON is exactly `{ allOf }`: an intersection inlines those members. */
  readonly simpleAllOf = new Map<Node, JsonSchema[]>();
  readonly ids = new Map<string, Node>();
  readonly defs: Record<string, JsonSchema> = {};
  /** The bodies with an `anyOf`: the only ones zod's `compactTypeUnion` pass can change. */
  readonly unions: JsonSchema[] = [];
  /** The bodies with an `allOf`: where an intersection's `allOf` may have been copied. */
  readonly carriers: JsonSchema[] = [];
  /** Each intersection's `allOf` array, innermost first. */
  readonly intersections: JsonSchema[][] = [];

  constructor(readonly side: SchemaSide) {}

  root(node: Node): JsonSchema | undefined {
    try {
      return this.visit(node);
    } catch (error) {
      if (error instanceof IdConflict) throw error;
      // Unsupported, or anything thrown by a getter or default: zod decides what that means.
      // Nodes left half-converted are forgotten; finished ones stay valid.
      for (const active of this.stack) this.memo.delete(active);
      this.stack.length = 0;
      return undefined;
    }
  }

  /** zod's `finalize` passes that come after flattening (which `visit` already did, bottom-up). */
  finish(): void {
    for (const body of this.unions) compactTypeUnion(body);
    if (this.intersections.length > 0) {
      const carriers = new Map<unknown, JsonSchema[]>();
      for (const json of this.carriers) {
        const allOf = json.allOf;
        if (!Array.isArray(allOf)) continue;
        const existing = carriers.get(allOf);
        if (existing) existing.push(json);
        else carriers.set(allOf, [json]);
      }
      for (const allOf of this.intersections) for (const json of carriers.get(allOf) ?? []) foldIntersection(json);
    }
    for (const id in this.defs) {
      const body = this.defs[id] as JsonSchema;
      if (body.id === id) delete body.id;
    }
  }

  visit(node: Node): JsonSchema {
    const hit = this.memo.get(node);
    if (hit !== undefined) {
      if (hit === ACTIVE) throw new Unsupported('recursion');
      return hit;
    }
    const internals = node._zod;
    if (internals === undefined || internals.def === undefined) throw new Unsupported('not a zod 4 schema');
    if (internals.toJSONSchema !== undefined) throw new Unsupported('custom toJSONSchema');
    this.memo.set(node, ACTIVE);
    this.stack.push(node);

    const def = internals.def;
    const own: JsonSchema = {};
    /** The schema this one inherits keywords from (zod's `seen.ref` set by the processor). */
    let ref: Node | undefined;
    let prefault: unknown = NONE;
    switch (def.type) {
      case 'string':
        scalar.string(node, own);
        break;
      case 'number':
        scalar.number(node, own);
        break;
      case 'boolean':
        own.type = 'boolean';
        break;
      case 'null':
        own.type = 'null';
        break;
      case 'any':
      case 'unknown':
      case 'date': // `{}` here; the override gives it its JSON form below
        break;
      case 'never':
        own.not = {};
        break;
      case 'enum':
        scalar.enumeration(def, own);
        break;
      case 'literal':
        scalar.literal(def, own);
        break;
      case 'template_literal': {
        const pattern = internals.pattern;
        if (pattern === undefined) throw new Unsupported('template literal without a pattern');
        own.type = 'string';
        own.pattern = pattern.source;
        break;
      }
      case 'array':
        arrayJson(this, node, def, own);
        break;
      case 'object':
        objectJson(this, def, own);
        break;
      case 'union': {
        const options = (def.options as readonly Node[]).map((option) => this.visit(option));
        if (def.inclusive === false) own.oneOf = options;
        else own.anyOf = options;
        break;
      }
      case 'intersection': {
        const left = this.visit(def.left as Node);
        const right = this.visit(def.right as Node);
        const allOf = [...(this.simpleAllOf.get(def.left as Node) ?? [left]), ...(this.simpleAllOf.get(def.right as Node) ?? [right])];
        own.allOf = allOf;
        this.intersections.push(allOf);
        break;
      }
      case 'tuple':
        tupleJson(this, node, def, own);
        break;
      case 'record':
        recordJson(this, def, own);
        break;
      case 'nullable':
        own.anyOf = [this.visit(def.innerType as Node), { type: 'null' }];
        break;
      case 'optional':
      case 'nonoptional':
        ref = def.innerType;
        break;
      case 'default':
        ref = def.innerType;
        own.default = serializeDefault(def.defaultValue);
        break;
      case 'prefault':
        ref = def.innerType;
        if (this.side === 'input') prefault = serializeDefault(def.defaultValue);
        break;
      case 'catch': {
        ref = def.innerType;
        let value: unknown;
        try {
          value = (def.catchValue as (ctx: undefined) => unknown)(undefined);
        } catch {
          throw new Unsupported('dynamic catch value');
        }
        own.default = jsonValue(value);
        break;
      }
      case 'readonly':
        ref = def.innerType;
        own.readOnly = true;
        break;
      case 'lazy':
        ref = internals.innerType;
        break;
      default:
        throw new Unsupported(def.type);
    }
    if (ref !== undefined) this.visit(ref); // a wrapper's inner schema is processed before its metadata

    const meta = registry.get(node);
    const id = meta === undefined ? undefined : applyMeta(own, meta);
    if (prefault !== NONE) own.default ??= prefault;
    if (own.allOf !== undefined && isOnlyAllOf(own)) this.simpleAllOf.set(node, own.allOf as JsonSchema[]);

    // zod's `flattenRef`: inherit the wrapped schema's keywords (the node's own win), or a parent's.
    // A schema made by `.meta()` / `.describe()` has the schema it was made from as `parent`; with
    // no id on that chain, inheriting from it changes nothing (same def, metadata already merged).
    const parent = internals.parent;
    if (ref !== undefined) {
      inherit(own, this.visit(ref), this.extracted.get(ref), false);
      if (parent !== undefined && parent !== ref && chainHasId(parent)) {
        const parentRef = this.visit(parent).$ref;
        if (parentRef) {
          own.$ref = parentRef;
          const body = this.extracted.get(parent);
          if (body !== undefined) dropInherited(own, body);
        }
      }
    } else if (parent !== undefined && chainHasId(parent)) {
      inherit(own, this.visit(parent), this.extracted.get(parent), true);
    }
    // The framework's override: a date is a date-time string.
    if (def.type === 'date') {
      own.type = 'string';
      own.format = 'date-time';
    }

    let use = own;
    if (id !== undefined) {
      const holder = this.ids.get(id);
      if (holder !== undefined && holder !== node) throw new IdConflict();
      this.ids.set(id, node);
      use = { $ref: LOCAL_DEFS + encodePointer(id) };
      this.defs[id] = own;
      this.extracted.set(node, own);
    }
    this.memo.set(node, use);
    this.stack.pop();
    if (own.anyOf !== undefined) this.unions.push(own);
    if (own.allOf !== undefined) this.carriers.push(own);
    return use;
  }
}
