// services and availability (migration 011): a consultant's services and weekly hours.
import type { Db } from '../db/database';
import type { Availability, HoursInterval, Service } from '../../core/model';

interface ServiceRow {
  id: string;
  consultant_id: string;
  title: string;
  description: string;
  duration_minutes: number;
  price_credits: number;
  status: Service['status'];
  created_at: number;
  updated_at: number;
}

const toService = (row: ServiceRow): Service => ({
  id: row.id,
  consultantId: row.consultant_id,
  title: row.title,
  description: row.description,
  durationMinutes: row.duration_minutes,
  priceCredits: row.price_credits,
  status: row.status,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

function readHours(json: string): HoursInterval[] {
  try {
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? (parsed as HoursInterval[]) : [];
  } catch {
    // Damaged hours offer no time rather than breaking the consultant's page.
    return [];
  }
}

export class CatalogRepo {
  private readonly byId;
  private readonly ofConsultant;
  private readonly insertRow;
  private readonly updateRow;
  private readonly availabilityOf;
  private readonly putAvailability;

  constructor(db: Db) {
    this.byId = db.prepare<[string], ServiceRow>('SELECT * FROM services WHERE id = ?');
    this.ofConsultant = db.prepare<[string], ServiceRow>(
      'SELECT * FROM services WHERE consultant_id = ? ORDER BY created_at, id',
    );
    this.insertRow = db.prepare(
      `INSERT INTO services (id, consultant_id, title, description, duration_minutes, price_credits, status,
         created_at, updated_at)
       VALUES (@id, @consultantId, @title, @description, @durationMinutes, @priceCredits, @status, @createdAt,
         @updatedAt)`,
    );
    this.updateRow = db.prepare(
      `UPDATE services SET title = @title, description = @description, duration_minutes = @durationMinutes,
         price_credits = @priceCredits, status = @status, updated_at = @updatedAt WHERE id = @id`,
    );
    this.availabilityOf = db.prepare<
      [string],
      { consultant_id: string; time_zone: string; hours: string; updated_at: number }
    >('SELECT * FROM availability WHERE consultant_id = ?');
    this.putAvailability = db.prepare<[string, string, string, number]>(
      `INSERT INTO availability (consultant_id, time_zone, hours, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (consultant_id) DO UPDATE SET time_zone = excluded.time_zone, hours = excluded.hours,
         updated_at = excluded.updated_at`,
    );
  }

  get(id: string): Service | null {
    const row = this.byId.get(id);
    return row ? toService(row) : null;
  }

  /** Every service of a consultant, archived ones too (core/catalog.ts decides who sees which). */
  listFor(consultantId: string): Service[] {
    return this.ofConsultant.all(consultantId).map(toService);
  }

  insert(service: Service): void {
    this.insertRow.run(service);
  }

  update(service: Service): void {
    this.updateRow.run(service);
  }

  availability(consultantId: string): Availability | null {
    const row = this.availabilityOf.get(consultantId);
    return row
      ? {
          consultantId: row.consultant_id,
          timeZone: row.time_zone,
          hours: readHours(row.hours),
          updatedAt: row.updated_at,
        }
      : null;
  }

  setAvailability(availability: Availability): void {
    this.putAvailability.run(
      availability.consultantId,
      availability.timeZone,
      JSON.stringify(availability.hours),
      availability.updatedAt,
    );
  }
}
