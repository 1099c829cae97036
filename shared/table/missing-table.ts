/**
 * A DynamoDB error in words an operator can act on: a missing table almost always means TABLE_NAME
 * (or the region) points at another stage or account. Any other error comes back unchanged.
 */
export function explainTableError(error: unknown, tableName: string, region: string): unknown {
  if ((error as { name?: string } | null)?.name !== 'ResourceNotFoundException') return error;
  return new Error(
    `Table '${tableName}' does not exist in region ${region}: set TABLE_NAME to the stage's table (the TABLE_NAME of any of the stage's functions) and AWS_REGION to its region`,
    { cause: error },
  );
}
