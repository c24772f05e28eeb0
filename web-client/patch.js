// JSON merge patches (RFC 7386), as protocol v2's events carry them (docs/protocol.md, *Positions, patches
// and legal actions*). Self-contained (no imports), so the Node unit tests load it as it is.

const is_object = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

// The result of applying `patch` to `target`. Neither argument is modified: the objects on the patched paths
// are copied, everything the patch does not touch is shared with `target` (so a board can tell a changed
// `view` from an unchanged one by identity). For each member of an object patch, null removes the member, an
// object is merged into the member (an object replacing a non-object), anything else replaces it; a patch
// that is not an object replaces the target whole.
export function apply_merge_patch(target, patch) {
  if (!is_object(patch)) return patch;
  const result = is_object(target) ? {...target} : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) {
      delete result[name];
    } else {
      result[name] = apply_merge_patch(result[name], value);
    }
  }
  return result;
}

// `value` without the null members of its objects, at any depth (array elements stay, null or not): a null
// member and an absent one mean the same in a merge-patched position, so positions compare in this form.
export function drop_nulls(value) {
  if (Array.isArray(value)) return value.map(drop_nulls);
  if (!is_object(value)) return value;
  const result = {};
  for (const [name, member] of Object.entries(value)) {
    if (member !== null) result[name] = drop_nulls(member);
  }
  return result;
}
