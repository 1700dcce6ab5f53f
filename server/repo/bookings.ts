// bookings and booking_cells (migration 011): the bookings, and the 15-minute cells of each consultant's calendar
// they hold, one row per cell (its primary key is "no double booking"). Callers write inside write().
import type { Db } from '../db/database';
import type { Booking, Slot } from '../../core/model';
import { heldSpans } from '../../core/bookings';
import { SLOT_STEP_MS, slotCells } from '../../core/availability';
import { AVAILABILITY_MESSAGES } from '../../core/availability';
import { QupmError } from '../../core/errors';
import { publicName } from '../../core/users';

interface BookingRow {
  id: string;
  consultant_id: string;
  client_id: string;
  service_id: string;
  service_title: string;
  duration_minutes: number;
  starts_at: number;
  ends_at: number;
  state: Booking['state'];
  payment_method: Booking['payment']['method'];
  payment_amount: number;
  list_price: number;
  offer_id: string | null;
  discount_percent: number | null;
  payment_status: Booking['payment']['status'];
  proposal_starts_at: number | null;
  proposal_ends_at: number | null;
  channel_id: string | null;
  client_time_zone: string;
  consultant_time_zone: string;
  sequence: number;
  closed_reason: Booking['closedReason'] | null;
  late_cancellation: number;
  created_at: number;
  updated_at: number;
}

/** What a read adds to a row: the two people's names as their profiles say now (NAMED below). */
interface NamedRow extends BookingRow {
  client_nickname: string | null;
  client_display_name: string | null;
  client_email: string | null;
  consultant_nickname: string | null;
  consultant_display_name: string | null;
  consultant_email: string | null;
}

/**
 * Every read joins the two people's profiles, so a booking names them as they go by now (a rename shows at once,
 * the former member as "A former member"); a row whose person is gone has no name rather than an id.
 */
const NAMED = `SELECT b.*,
    c.nickname AS client_nickname, c.display_name AS client_display_name, c.email AS client_email,
    s.nickname AS consultant_nickname, s.display_name AS consultant_display_name, s.email AS consultant_email
  FROM bookings b
  LEFT JOIN users c ON c.uid = b.client_id
  LEFT JOIN users s ON s.uid = b.consultant_id`;

const nameOf = (nickname: string | null, displayName: string | null, email: string | null): string =>
  publicName({ nickname, displayName, email: email ?? '' });

const toBooking = (row: NamedRow): Booking => {
  const booking: Booking = {
    id: row.id,
    consultantId: row.consultant_id,
    clientId: row.client_id,
    serviceId: row.service_id,
    serviceTitle: row.service_title,
    durationMinutes: row.duration_minutes,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    state: row.state,
    payment: {
      method: row.payment_method,
      amount: row.payment_amount,
      listPrice: row.list_price,
      status: row.payment_status,
      ...(row.offer_id !== null ? { offerId: row.offer_id } : {}),
      ...(row.discount_percent !== null ? { discountPercent: row.discount_percent } : {}),
    },
    channelId: row.channel_id ?? '',
    clientTimeZone: row.client_time_zone,
    consultantTimeZone: row.consultant_time_zone,
    sequence: row.sequence,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.proposal_starts_at !== null && row.proposal_ends_at !== null) {
    booking.proposal = { startsAt: row.proposal_starts_at, endsAt: row.proposal_ends_at };
  }
  if (row.closed_reason) booking.closedReason = row.closed_reason;
  if (row.late_cancellation === 1) booking.lateCancellation = true;
  const clientName = nameOf(row.client_nickname, row.client_display_name, row.client_email);
  if (clientName !== '') booking.clientName = clientName;
  const consultantName = nameOf(row.consultant_nickname, row.consultant_display_name, row.consultant_email);
  if (consultantName !== '') booking.consultantName = consultantName;
  return booking;
};

const toRow = (b: Booking): BookingRow => ({
  id: b.id,
  consultant_id: b.consultantId,
  client_id: b.clientId,
  service_id: b.serviceId,
  service_title: b.serviceTitle,
  duration_minutes: b.durationMinutes,
  starts_at: b.startsAt,
  ends_at: b.endsAt,
  state: b.state,
  payment_method: b.payment.method,
  payment_amount: b.payment.amount,
  list_price: b.payment.listPrice,
  offer_id: b.payment.offerId ?? null,
  discount_percent: b.payment.discountPercent ?? null,
  payment_status: b.payment.status,
  proposal_starts_at: b.proposal?.startsAt ?? null,
  proposal_ends_at: b.proposal?.endsAt ?? null,
  channel_id: b.channelId === '' ? null : b.channelId,
  client_time_zone: b.clientTimeZone,
  consultant_time_zone: b.consultantTimeZone,
  sequence: b.sequence,
  closed_reason: b.closedReason ?? null,
  late_cancellation: b.lateCancellation ? 1 : 0,
  created_at: b.createdAt,
  updated_at: b.updatedAt,
});

const COLUMNS = Object.keys(
  toRow({
    id: '',
    consultantId: '',
    clientId: '',
    serviceId: '',
    serviceTitle: '',
    durationMinutes: 0,
    startsAt: 0,
    endsAt: 0,
    state: 'requested',
    payment: { method: 'credits', amount: 0, listPrice: 0, status: 'held' },
    channelId: '',
    clientTimeZone: '',
    consultantTimeZone: '',
    sequence: 0,
    createdAt: 0,
    updatedAt: 0,
  }),
);

export class BookingsRepo {
  private readonly byId;
  private readonly upsert;
  private readonly ofClient;
  private readonly ofConsultant;
  private readonly due;
  private readonly cellsIn;
  private readonly cellsOf;
  private readonly insertCell;
  private readonly deleteCell;
  private readonly openOfConsultant;
  private readonly openOfClient;

  constructor(db: Db) {
    this.byId = db.prepare<[string], NamedRow>(`${NAMED} WHERE b.id = ?`);
    this.upsert = db.prepare(
      `INSERT INTO bookings (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'id')
         .map((c) => `${c} = excluded.${c}`)
         .join(', ')}`,
    );
    this.ofClient = db.prepare<[string], NamedRow>(
      `${NAMED} WHERE b.client_id = ? ORDER BY b.starts_at, b.id`,
    );
    this.ofConsultant = db.prepare<[string], NamedRow>(
      `${NAMED} WHERE b.consultant_id = ? ORDER BY b.starts_at, b.id`,
    );
    // core/bookings.ts planExpire: due once its time has come, unless a proposed time is still ahead.
    this.due = db.prepare<[number, number, number], NamedRow>(
      `${NAMED} WHERE b.state = 'requested' AND b.starts_at <= ?
         AND (b.proposal_starts_at IS NULL OR b.proposal_starts_at <= ?)
       ORDER BY b.starts_at, b.id LIMIT ?`,
    );
    this.cellsIn = db.prepare<[string, number, number], { cell: number; booking_id: string }>(
      'SELECT cell, booking_id FROM booking_cells WHERE consultant_id = ? AND cell >= ? AND cell < ? ORDER BY cell',
    );
    this.cellsOf = db.prepare<[string], { cell: number }>(
      'SELECT cell FROM booking_cells WHERE booking_id = ?',
    );
    this.insertCell = db.prepare<[string, number, string]>(
      'INSERT INTO booking_cells (consultant_id, cell, booking_id) VALUES (?, ?, ?)',
    );
    this.deleteCell = db.prepare<[string, number, string]>(
      'DELETE FROM booking_cells WHERE consultant_id = ? AND cell = ? AND booking_id = ?',
    );
    this.openOfConsultant = db.prepare<[string], { n: number }>(
      `SELECT COUNT(*) AS n FROM bookings WHERE consultant_id = ? AND state IN ('requested', 'confirmed')`,
    );
    this.openOfClient = db.prepare<[string], NamedRow>(
      `${NAMED} WHERE b.client_id = ? AND b.state IN ('requested', 'confirmed')`,
    );
  }

  get(id: string): Booking | null {
    const row = this.byId.get(id);
    return row ? toBooking(row) : null;
  }

  /** Stores the booking as it is now and makes the cells it holds exactly heldSpans(booking). */
  save(booking: Booking): void {
    this.upsert.run(toRow(booking));
    this.holdCells(booking);
  }

  listForClient(uid: string): Booking[] {
    return this.ofClient.all(uid).map(toBooking);
  }

  listForConsultant(uid: string): Booking[] {
    return this.ofConsultant.all(uid).map(toBooking);
  }

  /** Requests whose time has come (the expiry sweep), oldest first. */
  dueRequests(now: number, limit: number): Booking[] {
    return this.due.all(now, now, limit).map(toBooking);
  }

  /** How many open bookings a consultant has (leaving refuses while there are any). */
  openCountForConsultant(uid: string): number {
    return this.openOfConsultant.get(uid)?.n ?? 0;
  }

  openForClient(uid: string): Booking[] {
    return this.openOfClient.all(uid).map(toBooking);
  }

  /**
   * The calendar of `consultantId` around `span` as the cells other bookings hold (each a 15-minute span), leaving
   * out `exceptBookingId`'s own.
   */
  busy(consultantId: string, spans: readonly Slot[], exceptBookingId?: string): Slot[] {
    const busy: Slot[] = [];
    for (const span of spans) {
      for (const row of this.cellsIn.all(consultantId, span.startsAt, span.endsAt)) {
        if (row.booking_id !== exceptBookingId)
          busy.push({ startsAt: row.cell, endsAt: row.cell + SLOT_STEP_MS });
      }
    }
    return busy;
  }

  private holdCells(booking: Booking): void {
    const wanted = new Set(heldSpans(booking).flatMap(slotCells));
    const held = new Set(this.cellsOf.all(booking.id).map((row) => row.cell));
    for (const cell of held)
      if (!wanted.has(cell)) this.deleteCell.run(booking.consultantId, cell, booking.id);
    for (const cell of wanted) {
      if (held.has(cell)) continue;
      try {
        this.insertCell.run(booking.consultantId, cell, booking.id);
      } catch (error) {
        // The plan checked the calendar in this transaction; the key is the last word all the same.
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
          throw new QupmError('FAILED_PRECONDITION', AVAILABILITY_MESSAGES.taken, 'slot-taken');
        }
        throw error;
      }
    }
  }
}
