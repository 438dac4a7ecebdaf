/** The output keys n8n refuses in expressions, by n8n-workflow's own check, at any depth. */
import { isSafeObjectProperty } from 'n8n-workflow';

/** Paths (`json.custom_parameters.caller`) of every key of `value` that n8n refuses. */
export function refusedKeys(value: unknown, path = 'json'): string[] {
	if (Array.isArray(value))
		return value.flatMap((entry, index) => refusedKeys(entry, `${path}[${index}]`));
	if (value === null || typeof value !== 'object') return [];
	return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) => [
		...(isSafeObjectProperty(key) ? [] : [`${path}.${key}`]),
		...refusedKeys(inner, `${path}.${key}`),
	]);
}
