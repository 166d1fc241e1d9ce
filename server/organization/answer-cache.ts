/**
 * Answers built by PostgreSQL as JSON text (get-full-organization, organization/list),
 * kept per process under a key made of the content versions they show: a version bump
 * (migrations 0002/0003: triggers on organization, member, invitation, team and user)
 * makes an old entry unreachable, so nothing is ever served stale, on any instance;
 * unreachable entries age out. At most `limit` characters of keys and answers in all,
 * the least recently used dropped first.
 */
export class AnswerCache {
  private readonly entries = new Map<string, string>();
  private characters = 0;
  constructor(private readonly limit: number) {}

  get(key: string): string | undefined {
    const body = this.entries.get(key);
    if (body !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  set(key: string, body: string): void {
    if (key.length + body.length > this.limit) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.characters -= key.length + previous.length;
    }
    this.entries.set(key, body);
    this.characters += key.length + body.length;
    for (const [oldest, value] of this.entries) {
      if (this.characters <= this.limit) break;
      this.entries.delete(oldest);
      this.characters -= oldest.length + value.length;
    }
  }
}
