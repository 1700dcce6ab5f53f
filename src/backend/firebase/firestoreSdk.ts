// The parts of Firestore's SDK that QuPM uses, named. The adapter loads this module (not 'firebase/firestore'
// itself) with import(): a namespace import of the SDK keeps every export, pipelines and their regular
// expression engine (re2js) included, where named re-exports let webpack leave out what nobody calls.
export {
  Timestamp,
  clearIndexedDbPersistence,
  collection,
  connectFirestoreEmulator,
  deleteDoc,
  deleteField,
  doc,
  documentId,
  getDoc,
  getDocs,
  initializeFirestore,
  limit,
  onSnapshot,
  orderBy,
  persistentLocalCache,
  persistentMultipleTabManager,
  query,
  serverTimestamp,
  setDoc,
  terminate,
  updateDoc,
  where,
  writeBatch,
} from 'firebase/firestore';
export type {
  DocumentData,
  DocumentReference,
  DocumentSnapshot,
  Firestore,
  Query,
  QueryConstraint,
  QuerySnapshot,
  Unsubscribe,
} from 'firebase/firestore';
