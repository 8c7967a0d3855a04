import { describe, expect, it } from "vitest";
import { JOB_POLL_MAX_MS, JOB_POLL_MS, jobPollInterval } from "./jobs";

describe("the task monitor's polling", () => {
  it("polls every JOB_POLL_MS, backs off doubling on failures in a row, up to JOB_POLL_MAX_MS", () => {
    expect(jobPollInterval(0)).toBe(JOB_POLL_MS);
    expect(jobPollInterval(1)).toBe(JOB_POLL_MS * 2);
    expect(jobPollInterval(2)).toBe(JOB_POLL_MS * 4);
    expect(jobPollInterval(20)).toBe(JOB_POLL_MAX_MS);
  });
});
