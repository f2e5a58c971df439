import { createHmac } from 'node:crypto';
import { SignJWT, jwtVerify, errors } from 'jose';

const ISSUER = 'filamu';
const AUDIENCE = 'filamu-api';
const ALGORITHM = 'HS256';

export interface SessionClaims {
  sessionId: string;
  subjectId: string;
  kind: 'user' | 'agent';
}

/** Session tokens are JWTs that only name a session row; the row decides whether they still work. */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /**
   * A keyed digest with the app's signing secret, separated by `purpose` from tokens and from other digests: how
   * short secrets such as recovery codes are stored (one guess per check, never an offline search).
   */
  digest(purpose: string, data: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\0${data}`).digest('hex');
  }

  sign(claims: SessionClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sessionId, knd: claims.kind })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(claims.subjectId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Null for anything that is not a valid, unexpired token of ours. */
  async verify(token: string, now: Date): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
      });
      const { sid, knd, sub } = payload;
      if (typeof sid !== 'string' || typeof sub !== 'string' || (knd !== 'user' && knd !== 'agent')) return null;
      return { sessionId: sid, subjectId: sub, kind: knd };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
