package cosmo.neo4j;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.ConnectorPortRegister;
import org.neo4j.configuration.connectors.ConnectorType;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.kernel.internal.GraphDatabaseAPI;

/**
 * Neo4j 5.26 Community with its Bolt connector, for Cosmo's tests and benchmarks.
 *
 * <p>Usage: {@code Launcher HOME PASSWORD_FILE ENV_FILE [PAGECACHE]}. The database lives under
 * HOME; Bolt listens on 127.0.0.1 at a port the operating system picks. Once the server
 * answers, ENV_FILE is written (whole, by a rename, so a reader never sees a server that is
 * not ready): the {@code export NEO4J_URI=… NEO4J_USER=… NEO4J_PASSWORD=…} lines a shell
 * sources to reach it. The password
 * of user {@code neo4j} is read from PASSWORD_FILE, never from the command line, where other
 * users of the machine could read it. PAGECACHE is Neo4j's page cache size (e.g. {@code 2g}).
 *
 * <p>The server stops when its standard input closes: the shell script that started it holds
 * the other end, so a test run that ends in any way, even killed, takes its Neo4j with it.
 */
public final class Launcher {
    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: Launcher HOME PASSWORD_FILE ENV_FILE [PAGECACHE]");
            System.exit(2);
        }
        Path home = Path.of(args[0]);
        String password = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8).strip();
        Path envFile = Path.of(args[2]);
        long pageCache = args.length > 3 ? bytes(args[3]) : bytes("1g");

        DatabaseManagementService dbms = new DatabaseManagementServiceBuilder(home)
                .setConfig(Map.of(
                        BoltConnector.enabled, true,
                        BoltConnector.listen_address, new SocketAddress("127.0.0.1", 0),
                        BoltConnector.encryption_level, BoltConnector.EncryptionLevel.DISABLED,
                        HttpConnector.enabled, false,
                        GraphDatabaseSettings.auth_enabled, true,
                        GraphDatabaseSettings.pagecache_memory, pageCache))
                .build();
        Runtime.getRuntime().addShutdownHook(new Thread(dbms::shutdown, "neo4j-shutdown"));

        // The default user starts with password "neo4j" and must change it; Cosmo's tests log
        // in with the run's own password instead, set in the system database.
        dbms.database("system").executeTransactionally(
                "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
                Map.of("password", password));

        GraphDatabaseAPI system = (GraphDatabaseAPI) dbms.database("system");
        int port = system.getDependencyResolver()
                .resolveDependency(ConnectorPortRegister.class)
                .getLocalAddress(ConnectorType.BOLT)
                .getPort();
        String env = "export NEO4J_URI=bolt://127.0.0.1:" + port + "\n"
                + "export NEO4J_USER=neo4j\n"
                + "export NEO4J_PASSWORD=" + password + "\n"
                + "export NEO4J_DATABASE=neo4j\n";
        Path tmp = envFile.resolveSibling(envFile.getFileName() + ".tmp");
        Files.writeString(tmp, env, StandardCharsets.UTF_8);
        Files.move(tmp, envFile, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("neo4j: Bolt on 127.0.0.1:" + port);

        // Runs until the parent closes standard input (or the process is signalled).
        try {
            while (System.in.read() != -1) {
                // Anything written is ignored; only end-of-file matters.
            }
        } catch (IOException e) {
            // A broken pipe is an end too.
        }
        System.out.println("neo4j: standard input closed, stopping");
        System.exit(0);
    }

    /** "512m", "2g", "1073741824" → bytes. */
    private static long bytes(String size) {
        String s = size.strip().toLowerCase();
        long unit = 1;
        if (s.endsWith("k")) unit = 1L << 10;
        if (s.endsWith("m")) unit = 1L << 20;
        if (s.endsWith("g")) unit = 1L << 30;
        if (unit != 1) s = s.substring(0, s.length() - 1);
        return Long.parseLong(s) * unit;
    }
}
