/**
 * The rows of the spec's "Limits" table (docs/api/virtual-number-service.md) that only the
 * Virtual Number node uses, held as data. What the trigger or a shared transport uses too (the
 * callback URL, the upload size) stays in nodes/shared/checks.ts.
 */
export const VN_LIMITS = {
	/** Request run time: up to 10 minutes (heavy cdr_query, recordings from the archive). */
	requestRunTimeMs: 10 * 60 * 1000,
	// Virtual number settings.
	description: { maxLength: 199 },
	callDestinationPhone: { maxLength: 150 },
	privateField: { maxLength: 254, count: 10 },
	dialTimeoutInSec: { min: 1, max: 180 },
	recordPercentage: { min: 0, max: 100 },
	workingHours: { length: 168 },
	availableAmount: { min: 1, max: 50, default: 5 },
	// Call records and calls.
	cdrSql: { maxBytes: 8192 },
	cdrSubuniqueRows: { max: 2000 },
	cdrTotacSec: { min: 1, max: 3599 },
	click2callExpireDays: { min: 1, default: 365 },
	// Blacklist and users.
	blacklistNote: { maxLength: 149 },
	userEmail: { maxLength: 99 },
	userPassword: { minLength: 8 },
	userPhone: { minLength: 6 },
	accessLogRows: { max: 1000 },
} as const;
