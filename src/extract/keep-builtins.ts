/**
 * Load a module without letting it replace the engine's own built-ins.
 *
 * pdfjs-dist's legacy build bundles core-js and, on Node 20, swaps in its
 * polyfills for built-ins that already exist natively (`Array.prototype.push`,
 * `JSON.stringify`, `JSON.parse`) to follow newer spec corners. Those replace
 * the native functions for the whole process: after the first PDF, every push
 * and every JSON call anywhere (the store, the servers) runs through slower
 * JavaScript. Built-ins the module *adds* (ones missing on this Node) are kept:
 * the module may need them. Built-ins it *replaces* are put back.
 */

/** The intrinsic objects whose own properties are guarded. */
function guardedObjects(): object[] {
  const iteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())) as object;
  const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
  return [
    Object,
    Object.prototype,
    Array,
    Array.prototype,
    JSON,
    Math,
    Number,
    Number.prototype,
    String,
    String.prototype,
    Promise,
    Promise.prototype,
    Map.prototype,
    Set.prototype,
    ArrayBuffer.prototype,
    typedArrayPrototype,
    Uint8Array,
    Uint8Array.prototype,
    iteratorPrototype,
    RegExp.prototype,
    Function.prototype,
  ];
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;
}

/**
 * Run `load` (typically a dynamic import), then restore every built-in
 * property it replaced; properties it added stay. Returns what `load` returned.
 *
 * @example
 *   const pdfjs = await importKeepingBuiltins(() => import("pdfjs-dist/legacy/build/pdf.mjs"));
 */
export async function importKeepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const saved = guardedObjects().map((target) => {
    const descriptors = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(target)) descriptors.set(key, Object.getOwnPropertyDescriptor(target, key)!);
    return { target, descriptors };
  });
  try {
    return await load();
  } finally {
    for (const { target, descriptors } of saved) {
      for (const [key, before] of descriptors) {
        const now = Object.getOwnPropertyDescriptor(target, key);
        if (now && !sameDescriptor(before, now) && now.configurable) Object.defineProperty(target, key, before);
      }
    }
  }
}
