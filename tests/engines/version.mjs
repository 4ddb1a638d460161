// Prints the engine's name and version for a stage line:
//   node tests/engines/version.mjs firefox   ->  firefox-esr 153.8.0esr
import { engineVersion } from './engines.mjs';

console.log(engineVersion(process.argv[2]));
