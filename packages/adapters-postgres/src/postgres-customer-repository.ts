/**
 * Customer accounts in PostgreSQL. Email uniqueness is the unique index on lower(email), not a read
 * before the write, so two concurrent sign-ups with one email (in any letter case) cannot both
 * succeed. Erasure marks the row first (`erasure_requested_at`, PostgresPendingErasures: the finders skip
 * it, the sweep finds it) and deletes it last, which frees the email.
 */
import type { Customer, CustomerRepository, Role } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import type pg from 'pg';
import { copyDate, CUSTOMER_COLUMNS, toCustomer, type CustomerRow } from './account-mappers.js';
import { isUniqueViolation, databaseOperation } from './database-errors.js';

export const CUSTOMER_EMAIL_INDEX = 'customers_email_key';

export class PostgresCustomerRepository implements CustomerRepository {
  constructor(private readonly pool: pg.Pool) {}

  findByEmail(email: string): Promise<Customer | null> {
    return this.findOne('lower(email) = lower($1) AND erasure_requested_at IS NULL', email);
  }

  findById(customerId: string): Promise<Customer | null> {
    return this.findOne('customer_id = $1 AND erasure_requested_at IS NULL', customerId);
  }

  create(customer: Customer): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.pool.query(`INSERT INTO customers (${CUSTOMER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          customer.customerId,
          customer.email,
          customer.name,
          customer.passwordHash,
          customer.disabled,
          customer.role,
          copyDate(customer.createdAt),
        ]);
      } catch (error) {
        if (isUniqueViolation(error, CUSTOMER_EMAIL_INDEX)) {
          throw new DomainError('conflict', `A customer with email ${customer.email} already exists.`, { cause: error });
        }
        if (isUniqueViolation(error)) {
          throw new DomainError('conflict', `A customer with id ${customer.customerId} already exists.`, { cause: error });
        }
        throw error;
      }
    });
  }

  setDisabled(email: string, disabled: boolean): Promise<boolean> {
    return this.updated('UPDATE customers SET disabled = $2 WHERE lower(email) = lower($1)', [email, disabled]);
  }

  setRole(email: string, role: Role): Promise<boolean> {
    return this.updated('UPDATE customers SET role = $2 WHERE lower(email) = lower($1)', [email, role]);
  }

  updatePasswordHash(customerId: string, expected: string, replacement: string): Promise<boolean> {
    // The old hash in the condition makes it a compare-and-set in one statement.
    return this.updated('UPDATE customers SET password_hash = $3 WHERE customer_id = $1 AND password_hash = $2', [customerId, expected, replacement]);
  }

  delete(customerId: string): Promise<boolean> {
    return this.updated('DELETE FROM customers WHERE customer_id = $1', [customerId]);
  }

  private findOne(condition: string, value: string): Promise<Customer | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<CustomerRow>(`SELECT ${CUSTOMER_COLUMNS} FROM customers WHERE ${condition}`, [value]);
      const row = result.rows[0];
      return row === undefined ? null : toCustomer(row);
    });
  }

  private updated(sql: string, values: unknown[]): Promise<boolean> {
    return databaseOperation(async () => ((await this.pool.query(sql, values)).rowCount ?? 0) > 0);
  }
}
