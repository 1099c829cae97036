import { describe, expect, it } from 'vitest';
import { formatLogRecord, logFormatFrom, problemCode, requestLogLine } from './log-lines.ts';

describe('requestLogLine', () => {
  const entry = {
    method: 'POST',
    path: '/v1/vehicles',
    status: 422,
    code: 'validation_failed',
    ms: 12,
    requestId: 'r1',
  };

  it('is one short line with the problem code on an error', () => {
    expect(requestLogLine(entry, 'lines')).toBe('POST /v1/vehicles 422 validation_failed 12ms');
    expect(requestLogLine({ ...entry, status: 200, code: undefined }, 'lines')).toBe(
      'POST /v1/vehicles 200 12ms',
    );
  });

  it('is the whole entry as JSON when asked', () => {
    expect(JSON.parse(requestLogLine(entry, 'json'))).toEqual({ kind: 'request', ...entry });
  });
});

describe('problemCode', () => {
  it('reads the code of a problem document only', () => {
    const body = Buffer.from('{"code":"rate_limited","status":429}');
    expect(problemCode('application/problem+json', body)).toBe('rate_limited');
    expect(problemCode('application/json', body)).toBeUndefined();
    expect(problemCode('application/problem+json', Buffer.from('not json'))).toBeUndefined();
  });
});

describe('formatLogRecord', () => {
  const cycle = JSON.stringify({
    level: 'INFO',
    message: 'Guidance cycle',
    timestamp: '2026-11-23T21:00:00.000Z',
    service: 'fleet-fuel-guidance',
    sampling_rate: 0,
    xray_trace_id: '1-abc',
    function_name: 'guidance-worker',
    function_request_id: 'c6af9ac6-7b61-11e6-9a41-93e812345678',
    cold_start: true,
    fleetId: 'flt_1',
    vehicleId: 'veh_1',
    events: ['guidance.updated', 'stop.approaching'],
  });

  it('turns a Powertools record into one readable line without the boilerplate', () => {
    expect(formatLogRecord(cycle, 'lines')).toBe(
      'INFO Guidance cycle fleetId=flt_1 vehicleId=veh_1 events=guidance.updated,stop.approaching',
    );
  });

  it('shows an error by name and message, and quotes values with spaces', () => {
    const line = JSON.stringify({
      level: 'WARN',
      message: 'Latest position not recorded',
      error: {
        name: 'ConditionalCheckFailedException',
        message: 'The conditional request failed',
        stack: 'at …',
      },
      note: 'two words',
    });
    expect(formatLogRecord(line, 'lines')).toBe(
      'WARN Latest position not recorded error=ConditionalCheckFailedException: The conditional request failed note="two words"',
    );
  });

  it("keeps an error's cause on the line: it is what says why (a missing table, a refused call)", () => {
    const line = JSON.stringify({
      level: 'ERROR',
      message: 'Guidance cycle failed; SQS delivers the message again',
      messageId: 'm-1',
      vehicleId: 'veh_1',
      error: {
        name: 'Error',
        message: 'tracking item not written',
        stack: 'at …',
        cause: { name: 'ResourceNotFoundException', message: 'Requested resource not found' },
      },
    });
    expect(formatLogRecord(line, 'lines')).toBe(
      'ERROR Guidance cycle failed; SQS delivers the message again messageId=m-1 vehicleId=veh_1 ' +
        'error=Error: tracking item not written (cause: ResourceNotFoundException: Requested resource not found)',
    );
  });

  it('passes JSON through in json format, and anything that is not a record in both', () => {
    expect(formatLogRecord(cycle, 'json')).toBe(cycle);
    expect(formatLogRecord('GET /v1/me 200 4ms', 'lines')).toBe('GET /v1/me 200 4ms');
    expect(formatLogRecord('{"not":"a record"}', 'lines')).toBe('{"not":"a record"}');
  });
});

describe('logFormatFrom', () => {
  it('reads LOCAL_LOG and says when it cannot', () => {
    const warnings: string[] = [];
    expect(logFormatFrom({})).toBe('lines');
    expect(logFormatFrom({ LOCAL_LOG: 'json' })).toBe('json');
    expect(logFormatFrom({ LOCAL_LOG: 'yaml' }, (line) => warnings.push(line))).toBe('lines');
    expect(warnings).toEqual(['LOCAL_LOG=yaml is not "lines" or "json"; using lines']);
  });
});
