/** What a client is told when an answer fails: the status and a message safe to show (the cause goes to the log). */
import { ApiError } from './respond.ts';
import { UpstreamError } from '../src/youtube/client.ts';
import { MalformedUpstreamError } from '../src/lib/upstream-shape-error.ts';

export interface Failure {
  status: number;
  message: string;
}

/** Turns anything an answer threw into a status and message; every 5xx is handed to `report` for the log. */
export function describeFailure(error: unknown, report: (error: unknown) => void): Failure {
  if (error instanceof ApiError) {
    if (error.status >= 500) report(error);
    return { status: error.status, message: error.message };
  }
  report(error);
  if (error instanceof UpstreamError) return { status: 502, message: error.message };
  if (error instanceof MalformedUpstreamError) {
    return {
      status: 502,
      message: 'The YouTube Data API answered with data tagdex could not read; try again in a few minutes.',
    };
  }
  return {
    status: 500,
    message: 'tagdex failed to answer this request; the failure has been logged. Try again later.',
  };
}
