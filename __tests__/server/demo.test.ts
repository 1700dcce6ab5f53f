// The demo world (server/demo.ts) as its people find it: every offer in it leads to a booking ("Use this offer"
// needs the service an offer is for), and no two offers read alike on a screen.
import type { ReceivedOffer } from '../../core/offers';
import { requestsTo, withDemoServer } from './support/testServer';
import type { DemoIds, TestServer } from './support/testServer';

let server: TestServer;
let ids: DemoIds;
withDemoServer((world) => ({ server, ids } = world), { once: true });

const { get } = requestsTo(() => server);

describe('the demo world', () => {
  it("names one of Dana's active services on every offer, and no two offers share a title", async () => {
    const services = server.query<{ id: string; title: string; status: string }>(
      'SELECT id, title, status FROM services WHERE consultant_id = ?',
      ids.uid.consultant,
    );
    const offers = server.query<{ service_id: string | null; discount_percent: number; source: string }>(
      'SELECT service_id, discount_percent, source FROM offers',
    );
    expect(offers.length).toBeGreaterThanOrEqual(3);
    const titleOf = new Map(services.filter((s) => s.status === 'active').map((s) => [s.id, s.title]));
    for (const offer of offers) expect(titleOf.get(offer.service_id ?? '')).toEqual(expect.any(String));
    // What a card says ("20 % off Strategy session") and what a list says (the source) both tell them apart.
    const cards = offers.map((o) => `${o.discount_percent} % off ${titleOf.get(o.service_id ?? '') ?? ''}`);
    expect(new Set(cards).size).toBe(offers.length);
    expect(new Set(offers.map((o) => o.source)).size).toBe(offers.length);
  });

  it('shows the member an active offer with its service, so "Use this offer" opens a booking', async () => {
    const answer = await get(ids.token.member, '/api/offers');
    expect(answer.statusCode).toBe(200);
    const { offers } = answer.json<{ offers: ReceivedOffer[] }>();
    const active = offers.filter((o) => o.state === 'active');
    expect(active.length).toBeGreaterThanOrEqual(1);
    for (const offer of active)
      expect(offer).toMatchObject({ serviceId: expect.any(String), serviceTitle: expect.any(String) });
  });
});
