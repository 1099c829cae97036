import { RemovalPolicy } from 'aws-cdk-lib';

/**
 * What happens to a stateful resource (table, queue, bucket, secret, log group) when its stack
 * lets go of it. A stage that keeps its data keeps it on update and delete, but not when the
 * resource's own creation rolls back (CloudFormation's `RetainExceptOnCreate`): most of them have
 * fixed names, and a plain `Retain` would leave the half-created one behind, so that the retried
 * deploy fails on "already exists". A stage that keeps nothing (the sandbox) deletes them.
 */
export function removalPolicyFor(retainData: boolean): RemovalPolicy {
  return retainData ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}
