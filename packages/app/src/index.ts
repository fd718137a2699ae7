/**
 * @storefront/app: the composition root. Configuration from the environment, the Inversify
 * container, and the lifecycle of a Storefront process (`startStorefront`).
 */
export { ConfigError, loadConfig, type ConfigIssue, type Env, type LogLevel, type RateLimitConfig, type ScryptConfig, type DatabaseKind, type StorefrontConfig } from './config.js';
export { createContainer, databaseModule, type ContainerOverrides } from './container.js';
export { TYPES, type ServiceId, type Services } from './identifiers.js';
export { bindFactory, bindValue, resolve } from './binding.js';
export { createLogger, REDACTED_PATHS, type Logger, type LoggerSettings } from './logger.js';
export { coreModule } from './modules/core-module.js';
export { cryptoModule } from './modules/crypto-module.js';
export { httpModule } from './modules/http-module.js';
export { memoryModule } from './modules/memory-module.js';
export { settingsModule } from './modules/settings-module.js';
export { seedDatabase } from './seed.js';
export { startStorefront, type RunningStorefront, type StartOptions } from './server.js';
