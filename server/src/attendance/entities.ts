import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** The attendance report of an ended event and its rows (one per attendee); built in `report.ts` with SQL. */
export const AttendanceReport = defineEntity({
  name: 'AttendanceReport',
  tableName: 'attendance_report',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    workspaceId: p.uuid(),
    summary: p.json<Record<string, unknown>>(),
    generatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type AttendanceReport = InferEntity<typeof AttendanceReport>;

export const AttendanceRecord = defineEntity({
  name: 'AttendanceRecord',
  tableName: 'attendance_record',
  properties: (p) => ({
    eventId: p.uuid().primary(),
    position: p.integer().primary(),
    workspaceId: p.uuid(),
    participantId: p.text(),
    row: p.json<Record<string, unknown>>(),
  }),
});
export type AttendanceRecord = InferEntity<typeof AttendanceRecord>;

export const attendanceEntities = [AttendanceReport, AttendanceRecord];
