// @gantry/ssh/testing public API: startTestSshServer, TestSshServer, TEST_USER.

export { startTestSshServer, TEST_USER, type TestSshServer } from "./sshd.js";
