// Run once by compose.yaml's mongo-init service (mongosh against mongo1): initiates the
// replica set rs0 of the three members unless it exists, then waits until one is primary,
// so that the api and the worker (which wait for this service to end) find a writable set.
const members = ['mongo1:27017', 'mongo2:27017', 'mongo3:27017'];
let initiated = false;
try {
  initiated = rs.status().ok === 1;
} catch (error) {
  // NotYetInitialized (94): a fresh set.
  if (error.code !== 94) throw error;
}
if (!initiated) {
  rs.initiate({ _id: 'rs0', members: members.map((host, _id) => ({ _id, host })) });
  print('replica set rs0 initiated');
}
for (let tries = 0; !db.hello().isWritablePrimary && !db.hello().primary; tries += 1) {
  if (tries >= 120) throw new Error('no primary after 60 s');
  sleep(500);
}
print(`replica set rs0 primary: ${db.hello().primary}`);
