import { NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';

type Json = Record<string, unknown>;
type Resource = { Type: string; Properties?: Json };

/**
 * A stage as one template: the stack's resources and those of its nested stacks (one per API
 * feature, lib/api.ts), each nested parameter replaced by the parent's value for it and each
 * nested output by what it names. Assertions about the stage (every function, role, route) then
 * read as they would if it were one stack; `logicalIdOf` names a resource within its own template.
 * The limits per real template are checked on the synthesized files (stacks.test.ts).
 */
export function stageTemplate(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as Json;
  const resources = { ...(parent.Resources as Record<string, Resource>) };
  const nestedOutputs = new Map<string, unknown>();
  for (const nested of nestedStacksOf(stack)) {
    const resourceId = stack.getLogicalId(nested.nestedStackResource as never);
    const parameters = (resources[resourceId]?.Properties?.Parameters ?? {}) as Json;
    const own = Template.fromStack(nested).toJSON() as Json;
    // Each nested stack names its resources on its own (every feature has a `Logs…`): prefixed here.
    const renamed = new Map(
      Object.keys(own.Resources as Json).map((id) => [id, `${resourceId}/${id}`] as const),
    );
    const template = renameResources(substituteRefs(own, parameters), renamed) as Json;
    for (const [name, output] of Object.entries(
      (template.Outputs ?? {}) as Record<string, { Value: unknown }>,
    )) {
      nestedOutputs.set(`${resourceId}.Outputs.${name}`, output.Value);
    }
    delete resources[resourceId];
    for (const [id, resource] of Object.entries(template.Resources as Record<string, Resource>)) {
      resources[renamed.get(id) as string] = resource;
    }
  }
  const merged = replaceOutputReferences({ ...parent, Resources: resources }, nestedOutputs);
  return Template.fromJSON(merged as Json, { skipCyclicalDependenciesCheck: true });
}

/** The nested stacks made under `stack` (not their own nested ones: the stages have one level). */
export function nestedStacksOf(stack: Stack): NestedStack[] {
  return stack.node
    .findAll()
    .filter((c): c is NestedStack => c instanceof NestedStack && c.nestedStackParent === stack);
}

/** A resource's id in `stageTemplate`: its logical id, after `<nested stack's logical id>/` when nested. */
export function logicalIdOf(construct: IConstruct): string {
  const resource = construct.node.defaultChild ?? construct;
  const stack = Stack.of(resource);
  const id = stack.getLogicalId(resource as never);
  if (!NestedStack.isNestedStack(stack)) return id;
  const parent = stack.nestedStackParent as Stack;
  return `${parent.getLogicalId(stack.nestedStackResource as never)}/${id}`;
}

function substituteRefs(value: unknown, parameters: Json): unknown {
  if (Array.isArray(value)) return value.map((item) => substituteRefs(item, parameters));
  if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    const ref = (value as { Ref?: unknown }).Ref;
    if (keys.length === 1 && typeof ref === 'string' && ref in parameters) return parameters[ref];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteRefs(v, parameters)]));
  }
  return value;
}

/** `{ Ref }`, `{ Fn::GetAtt }` and `DependsOn` naming a renamed resource name it by its new id. */
function renameResources(value: unknown, renamed: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameResources(item, renamed));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (key === 'Resources') {
          return [
            key,
            Object.fromEntries(
              Object.entries(inner as Json).map(([id, r]) => [id, renameResources(r, renamed)]),
            ),
          ];
        }
        if (key === 'Ref' && typeof inner === 'string') return [key, renamed.get(inner) ?? inner];
        if (key === 'Fn::GetAtt' && Array.isArray(inner)) {
          return [key, [renamed.get(inner[0]) ?? inner[0], ...inner.slice(1)]];
        }
        if (key === 'DependsOn') {
          const ids = Array.isArray(inner) ? inner : [inner];
          return [key, ids.map((id: string) => renamed.get(id) ?? id)];
        }
        return [key, renameResources(inner, renamed)];
      }),
    );
  }
  return value;
}

function replaceOutputReferences(value: unknown, outputs: Map<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((item) => replaceOutputReferences(item, outputs));
  if (value && typeof value === 'object') {
    const getAtt = (value as { 'Fn::GetAtt'?: unknown })['Fn::GetAtt'];
    if (Object.keys(value).length === 1 && Array.isArray(getAtt)) {
      const key = `${getAtt[0]}.${getAtt[1]}`;
      if (outputs.has(key)) return outputs.get(key);
    }
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, replaceOutputReferences(v, outputs)]),
    );
  }
  return value;
}
