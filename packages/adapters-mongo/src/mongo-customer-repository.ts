/**
 * Customer accounts in MongoDB. Email uniqueness is the unique index's job, not a read before the
 * write, so two concurrent sign-ups with one email cannot both succeed. The index compares bytes:
 * emails arrive normalised (trimmed, lower-case), which is what makes "Ann@X" and "ann@x" one email.
 * Erasure marks the document first (`erasureRequestedAt`, MongoPendingErasures: the finders skip it, a partial index
 * finds it for the sweep) and deletes it last, which frees the email in the index.
 */
import type { Customer, CustomerRepository, Role } from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import type { Collection } from 'mongodb';
import { INDEXES } from './collections.js';
import { toCustomer, toCustomerDocument, type CustomerDocument } from './customer-mapper.js';

/** Accounts not being erased: what the finders read. */
const LIVE = { erasureRequestedAt: { $exists: false } } as const;
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export class MongoCustomerRepository implements CustomerRepository {
  constructor(private readonly customers: Collection<CustomerDocument>) {}

  findByEmail(email: string): Promise<Customer | null> {
    return databaseOperation(async () => {
      const document = await this.customers.findOne({ email, ...LIVE });
      return document === null ? null : toCustomer(document);
    });
  }

  findById(customerId: string): Promise<Customer | null> {
    return databaseOperation(async () => {
      const document = await this.customers.findOne({ _id: customerId, ...LIVE });
      return document === null ? null : toCustomer(document);
    });
  }

  create(customer: Customer): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.customers.insertOne(toCustomerDocument(customer));
      } catch (error) {
        if (isDuplicateKey(error, INDEXES.customerEmail)) {
          throw new DomainError('conflict', `A customer with email ${customer.email} already exists.`, { cause: error });
        }
        if (isDuplicateKey(error)) {
          throw new DomainError('conflict', `A customer with id ${customer.customerId} already exists.`, { cause: error });
        }
        throw error;
      }
    });
  }

  setDisabled(email: string, disabled: boolean): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.customers.updateOne({ email }, { $set: { disabled } });
      return result.matchedCount > 0;
    });
  }

  setRole(email: string, role: Role): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.customers.updateOne({ email }, { $set: { role } });
      return result.matchedCount > 0;
    });
  }

  updatePasswordHash(customerId: string, expected: string, replacement: string): Promise<boolean> {
    return databaseOperation(async () => {
      // The filter on the old hash makes it a compare-and-set in one atomic update.
      const result = await this.customers.updateOne({ _id: customerId, passwordHash: expected }, { $set: { passwordHash: replacement } });
      return result.matchedCount > 0;
    });
  }

  delete(customerId: string): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.customers.deleteOne({ _id: customerId });
      return result.deletedCount === 1;
    });
  }
}
