// The login page: says so when the server sent the user back after a wrong
// user or password (/login?failed=1). Nothing else: the form posts itself.
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  if (new URLSearchParams(location.search).get('failed') === '1') {
    document.getElementById('login-failed').classList.remove('hidden');
  }
});
