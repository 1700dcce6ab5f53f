// firebase-functions as firebase-tools' Functions emulator runs it (FIREBASE_DEBUG_FEATURES skipTokenVerification):
// it reads the claims of the caller's ID token without verifying it again, because the in-process callable host
// (support/callableHost.ts) has verified it as production does. Set before firebase-functions loads, which reads
// debug mode once.
process.env.FIREBASE_DEBUG_MODE = 'true';
process.env.FIREBASE_DEBUG_FEATURES = JSON.stringify({ skipTokenVerification: true });
