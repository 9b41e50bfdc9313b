export async function run() {
  return 0;
}
