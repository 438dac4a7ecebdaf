/**
 * The words the reply reader (replies.ts) knows, in the four languages written in Israel: Hebrew,
 * Arabic, Russian and English. Written as people write them; the reader folds them as it folds a
 * message (case, Arabic alef and hamza forms, ta marbuta, Hebrew and Arabic points, repeated
 * letters). docs/trigger.md has the table of what they make of a message.
 */

/** What a word does in a reply. */
export type WordRole =
	/** A refusal whatever else the message says about it (unsubscribe, הסר, отписаться). */
	| 'refusal'
	/** A refusal word with other everyday meanings (stop, cancel, remove, תפסיקו, стоп, توقف). */
	| 'refusalWord'
	/** Sending or contacting: a refusal after a negation ("don't text me", "אל תשלחו"). */
	| 'send'
	/** Interested: a refusal after a negation ("not interested", "לא מעוניין"). */
	| 'interested'
	/** Want: after a negation, a refusal when the message names messages ("לא רוצה הודעות"). */
	| 'want'
	/** Enough: a refusal when the message names messages or sending ("די עם ההודעות"). */
	| 'enough'
	/** A negation of the word after it. */
	| 'not'
	/** "no", which negates only "more" ("no more texts"). */
	| 'no'
	/** The messages themselves. */
	| 'messages'
	/** More, anymore: as "no more" or a plain word. */
	| 'more'
	/** Who or what a refusal is about (me, the list, my number) and the small words around it. */
	| 'object'
	/** Courtesy and emphasis that change nothing (please, thanks, now, בבקשה, пожалуйста). */
	| 'courtesy';

/** The words of each role, space-separated. */
export const REPLY_WORDS: Record<WordRole, string> = {
	refusal:
		'unsubscribe unsubscribed unsub unsuscribe unsubcribe unsubscibe optout stopall revoke ' +
		'הסר הסרה להסרה הסירו הסירי תסיר תסירי תסירו להסיר הסירוני הסירני תסירוני מסירים ' +
		'отписаться отписать отпишите отпиши отписка отпишись отпишитесь отписываюсь',
	refusalWord:
		'stop end quit cancel remove removed delete halt ' +
		'סטופ עצור עצרו תעצרו תוריד תורידי תורידו הורד הורידי הורידו להוריד הורידוני תורידוני ' +
		'הפסק הפסיקי הפסיקו תפסיק תפסיקי תפסיקו להפסיק בטל בטלי בטלו תבטל תבטלי תבטלו לבטל ביטול ' +
		'стоп удалить удалите удали отменить отмените отмена прекратить прекратите прекрати ' +
		'остановите неинтересно отстаньте ' +
		'إلغاء إلغا ألغي ألغوا ألغ إيقاف أوقف أوقفوا أوقفي توقف توقفوا توقفي وقف حذف احذف احذفوا ' +
		'احذفي احذفني احذفوني إزالة أزل أزيلوا أزيلي أزيلوني ستوب',
	send:
		'text texting send sending message messaging msg contact contacting call calling write ' +
		'writing email mail spam spamming ' +
		'תשלח תשלחו תשלחי לשלוח שולחים תכתבו תכתוב לכתוב תפנו לפנות תטרידו תטריד להטריד תתקשרו ' +
		'תתקשר להתקשר תציקו להציק ' +
		'пишите пиши писать присылайте присылай присылать отправляйте отправлять шлите слать ' +
		'беспокойте беспокоить звоните звонить ' +
		'ترسل ترسلوا ترسلو ترسلي إرسال تبعت تبعتو تبعتوا تبعث تبعثوا تزعج تزعجني تزعجوني تتصل ' +
		'تتصلوا تراسلني تراسلوني',
	interested:
		'interested מעוניין מעוניינת מעוניינים מעוניינות интересно интересует интересен интересна ' +
		'интересны مهتم مهتمة مهتمين',
	want: 'want wanna רוצה רוצים хочу хотим أريد بدي بدنا عايز حابب',
	enough: 'enough די מספיק хватит достаточно كفى بكفي بيكفي خلص خلاص',
	not: 'dont not never אל לא בלי не ни لا ما مش مو غير بلاش',
	no: 'no',
	messages:
		'messages texts sms smss msgs ads ad adverts advertising marketing notifications promotions ' +
		'promos offers newsletter updates receive receiving לקבל получать ' +
		'הודעות הודעה ההודעות ההודעה מסרונים סמס סמסים פרסומות פרסומת הפרסומות דיוור הדיוור ' +
		'דיוורים מבצעים עדכונים מההודעות מהודעות מהפרסומות ' +
		'сообщения сообщений сообщение смс эсэмэс рассылку рассылки рассылка рассылок рекламу ' +
		'реклама рекламы спам ' +
		'رسائل الرسائل رسايل الرسايل رسالة الرسالة إعلانات الإعلانات عروض العروض',
	more: 'more anymore יותר больше',
	object:
		'me us my mine myself our number phone from the this that your list lists mailing contacts ' +
		'database all off of out subscription subscriptions it these them here to any sender ' +
		'אותי אותנו אותו את עצמי מהרשימה מרשימה רשימה הרשימה מרשימת רשימת מהרשימות הרשימות ' +
		'התפוצה תפוצה מהתפוצה מרשימות מהמאגר המאגר מאגר מהמערכת המערכת המספר מספר מהמספר הטלפון ' +
		'טלפון שלי שלנו לי לנו אליי אלי מכל כל המנוי מנוי מהמנוי ממנוי ההרשמה מכאן מזה ' +
		'מהקבוצה הקבוצה מהדיוור מדיוור ממני עם ' +
		'меня нас мой мою моё номер из списка список от этой этого этих всех все всего мне нам ' +
		'подписку подписки базы базу с сюда вашей вашего ваших ' +
		'من القائمة قائمة الاشتراك اشتراك رقمي الرقم رقم هذا هذه لي عني كل جميع الخدمة خدمة عن إلي ' +
		'إلى',
	courtesy:
		'please pls plz pleas thanks thank thx ty you now immediately asap right away again ever ' +
		'forever permanently kindly just i im would like wish be do ok okay sir hi sorry really ' +
		'already am ' +
		'בבקשה נא אנא תודה רבה מיד מייד עכשיו כבר דחוף לאלתר סופית לצמיתות לתמיד פליז אני אנחנו ' +
		'מבקש מבקשת מבקשים אבקש אפשר גם פשוט הלאה היי שלום סליחה אודה ' +
		'пожалуйста пожалуйсто спасибо срочно сейчас немедленно я прошу уже навсегда просто ' +
		'здравствуйте привет ' +
		'فضلك لو سمحت أرجو رجاء الرجاء شكرا الآن حالا فورا أنا بليز مرحبا يا',
};

/** Refusals of several words, read as one refusal (`opt out` is `optout`). */
export const REFUSAL_PHRASES: readonly string[] = [
	'opt out',
	'un subscribe',
	'take me off',
	'take us off',
	'take my number off',
	'get me off',
	'leave me alone',
	'עזבו אותי',
	'עזוב אותי',
	'оставьте меня в покое',
	'отстаньте от меня',
	'اتركني',
	'اتركوني',
];

/** After `stop`, a word that makes it a visit, not a refusal ("stop by the store"). */
export const STOP_BY = 'by over in at for';

/** Before a refusal word, a word that makes it a noun ("the end", "bus stop"). */
export const NOUN_BEFORE = 'the a an bus this that my your his her its our their no full';

/**
 * The standard Hebrew (SI-1452) and Russian (ЙЦУКЕН) keyboard layouts, by the English key each
 * letter is on: a word typed with the wrong layout on (`vxr` for הסר, `דאםפ` for stop) is read
 * through them.
 */
export const LAYOUTS = {
	english: "qwertyuiopasdfghjkl;'zxcvbnm,./",
	hebrew: "/'קראטוןםפשדגכעיחלךף,זסבהנמצתץ.",
	russian: 'йцукенгшщзфывапролджэячсмитьбю.',
} as const;
