// The socket's protocol and client live in IMUShareClient (the motion manager needs only them);
// re-exported so a program that imports IMUShare keeps the request grammar, JSONValue and
// DaemonClient in scope.
@_exported import IMUShareClient
