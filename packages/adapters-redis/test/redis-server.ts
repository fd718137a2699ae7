/**
 * A real Redis for the tests: REDIS_URL when set (CI sets it to the machine's Redis), else a Redis
 * answering on the default local address (a developer's `pnpm test` finds the one they run), else
 * a throwaway container through testcontainers when a Docker engine is reachable, else null, and
 * the caller skips with one loud line saying why.
 */
import { redisAnswers } from '@storefront/testing';
import { Redis } from 'ioredis';

const LOCAL_REDIS = 'redis://127.0.0.1:6379';

export interface TestRedis {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startTestRedis(): Promise<TestRedis | null> {
  const fromEnv = process.env['REDIS_URL'];
  if (fromEnv !== undefined && fromEnv !== '') return { url: fromEnv, stop: async () => undefined };
  if (await redisAnswers(LOCAL_REDIS)) return { url: LOCAL_REDIS, stop: async () => undefined };
  try {
    const { GenericContainer } = await import('testcontainers');
    const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
    return {
      url: `redis://${container.getHost()}:${container.getMappedPort(6379)}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    console.warn(
      `\n  !!! SKIPPING Redis tests: REDIS_URL is not set, no Redis answers at ${LOCAL_REDIS}, and testcontainers could not start Redis (${(error as Error).message.split('\n')[0]}).\n`,
    );
    return null;
  }
}

export function connect(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
}
